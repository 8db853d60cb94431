# standard input named twice: the second would read nothing (a warning,
# exit 0, one of the two inputs a script meant lost): a usage error, and
# no database is made
stdin: tests/fixtures/audit/last-event-admission.jsonl
args: audit ingest --db "$tmp/aist.db" - -
exit: 2
stderr-has: quotaflow: error: audit ingest: standard input (-) is named 2 times; it can be read once
after-sh: test ! -e "$tmp/aist.db"
