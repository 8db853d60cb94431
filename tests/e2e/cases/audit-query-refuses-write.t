# audit query opens the database read-only and refuses a write statement
setup: audit ingest --db "$tmp/audit-ro.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/audit-ro.db" "delete from events"
exit: 1
stderr-has: a write statement is refused
