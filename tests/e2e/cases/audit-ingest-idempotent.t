# Ingesting the same inputs again adds nothing (events, inputs, derived rows)
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/audit-idem.jsonl"
setup: audit ingest --db "$tmp/audit-idem.db" "$tmp/audit-idem.jsonl" tests/fixtures/audit/cluster.yaml
setup: audit ingest --db "$tmp/audit-idem.db" tests/fixtures/audit/cluster.yaml "$tmp/audit-idem.jsonl"
args: audit query --db "$tmp/audit-idem.db" "select (select count(*) from events), (select count(*) from inputs), (select count(*) from audit_waits), (select count(*) from audit_borrowing), (select count(*) from audit_policy_changes)"
--- stdout
(select count(*) from events)	(select count(*) from inputs)	(select count(*) from audit_waits)	(select count(*) from audit_borrowing)	(select count(*) from audit_policy_changes)
22	2	5	3	9
