# A workload known only from quotaflow events and never admitted is judged (D8) on the request its pending events carry: d1 (2 pods of 1 GPU) waits in team-d (nominal 4, unused by team-d) from 10s while team-c borrows 3 of team-d's GPUs and team-d never reclaims; the evidence ends at 105s: 95s, usage 0 + 2 <= 4
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/fidelity/pending-trace.jsonl --until 150s --events "$tmp/audit-bna.jsonl"
setup: audit ingest --db "$tmp/audit-bna.db" "$tmp/audit-bna.jsonl" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/audit-bna.db" "select * from audit_breaches"
exit: 0
--- stdout
cluster	workload	cluster_queue	queued_at	admitted_at	wait_seconds	usage_at_arrival	nominal
default	team-d/job-d1-d53d3	team-d	1970-01-01T00:00:10.000Z		95.0	0.0	4.0
