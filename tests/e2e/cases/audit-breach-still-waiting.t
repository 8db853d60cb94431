# A workload still waiting is judged (D8): d1 (2 GPUs, team-d nominal 4) is preempted by d2 (2 GPUs, higher priority) at 10s while team-c borrows team-d's other 2 GPUs and team-d never reclaims; at the end of the evidence (100s) d1 has waited 90s although team-d's usage (2, d2) plus its last reservation (2) fit 4
setup: simulate -f tests/fixtures/audit/waiting/cluster.yaml --trace tests/fixtures/audit/waiting/trace.jsonl --until 100s --events "$tmp/audit-sw.jsonl"
setup: audit ingest --db "$tmp/audit-sw.db" "$tmp/audit-sw.jsonl" tests/fixtures/audit/waiting/cluster.yaml
args: audit query --db "$tmp/audit-sw.db" "select * from audit_breaches"
exit: 0
--- stdout
cluster	workload	cluster_queue	queued_at	admitted_at	wait_seconds	usage_at_arrival	nominal
default	team-d/job-d1-d53d3	team-d	1970-01-01T00:00:10.000Z		90.0	2.0	4.0
