# Breach by construction: d1 fitted team-d's nominal quota on arrival (0 + 2 <= 4) but waited 90s (> 60s) because team-d never reclaims
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/audit-sc.jsonl"
setup: audit ingest --db "$tmp/audit-breaches.db" "$tmp/audit-sc.jsonl" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/audit-breaches.db" "select * from audit_breaches"
exit: 0
--- stdout
cluster	workload	cluster_queue	queued_at	admitted_at	wait_seconds	usage_at_arrival	nominal
default	team-d/job-d1-d53d3	team-d	1970-01-01T00:00:10.000Z	1970-01-01T00:01:40.000Z	90.0	0.0	4.0
