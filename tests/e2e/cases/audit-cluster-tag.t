# --cluster tags everything; one database holds a fleet
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/audit-fleet.jsonl"
setup: audit ingest --db "$tmp/audit-fleet.db" --cluster eu-1 "$tmp/audit-fleet.jsonl" tests/fixtures/audit/cluster.yaml
setup: audit ingest --db "$tmp/audit-fleet.db" --cluster us-2 "$tmp/audit-fleet.jsonl" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/audit-fleet.db" "select cluster, count(*) from audit_waits group by cluster"
--- stdout
cluster	count(*)
eu-1	5
us-2	5
