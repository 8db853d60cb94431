# Rejected records are kept with their raw text and the reason
setup-sh: "$QF" audit ingest --db "$tmp/audit-rejtab.db" tests/fixtures/audit/bad-events.jsonl; [ $? -le 1 ]
args: audit query --db "$tmp/audit-rejtab.db" "select line, raw from rejected order by line"
--- stdout
line	raw
2	{"time_ms":5,"type":"Normal","reason":"Admitted",
3	{"time_ms":"late","reason":"Admitted","workload":"ns/x"}
4	{"time_ms":7,"type":"Normal","reason":"Admitted","workload":"no-namespace"}
