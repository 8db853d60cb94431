# A database whose rejected Workloads and policy objects were stored
# without their text (raw ''), as every earlier quotaflow stored them:
# ingesting the same input again gives those rows their text, and adds
# no second row beside each (rejected dedupes on cluster, file, line and
# raw text)
setup-sh: "$QF" audit ingest --db "$tmp/airrl.db" tests/fixtures/audit/workloads-bad-fields.json >/dev/null 2>&1; test $? = 1
setup-sh: sqlite3 "$tmp/airrl.db" "update rejected set raw = ''"
setup-sh: "$QF" audit ingest --db "$tmp/airrl.db" tests/fixtures/audit/workloads-bad-fields.json >/dev/null 2>&1; test $? = 1
args: audit query --db "$tmp/airrl.db" "select count(*) as n, sum(raw like '{%') as with_text from rejected"
exit: 0
--- stdout
n	with_text
3	3
