# A directory given to ingest stands for every file below it (sorted), as in validate
setup-sh: mkdir -p "$tmp/audit-dir/in/sub"
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/audit-dir/in/sub/events.jsonl"
setup-sh: cp tests/fixtures/audit/cluster.yaml "$tmp/audit-dir/in/"
setup: audit ingest --db "$tmp/audit-dir/a.db" "$tmp/audit-dir/in"
args: audit query --db "$tmp/audit-dir/a.db" "select (select count(*) from events), (select count(*) from inputs), (select count(*) from audit_waits)"
--- stdout
(select count(*) from events)	(select count(*) from inputs)	(select count(*) from audit_waits)
22	2	5
