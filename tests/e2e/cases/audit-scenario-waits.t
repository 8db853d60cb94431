# Waits by construction (tests/fixtures/audit): a1 admitted at 0, preempted at 10s and readmitted at 20s (two rows); d1 waits 90s while team-c borrows team-d's GPUs
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/audit-sc.jsonl"
setup: audit ingest --db "$tmp/audit-waits.db" "$tmp/audit-sc.jsonl" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/audit-waits.db" "select * from audit_waits"
exit: 0
--- stdout
cluster	workload	namespace	cluster_queue	queued_at	admitted_at	wait_seconds
default	job-a1-07ad7	team-a	team-a	1970-01-01T00:00:00.000Z	1970-01-01T00:00:00.000Z	0.0
default	job-c1-29fde	team-c	team-c	1970-01-01T00:00:00.000Z	1970-01-01T00:00:00.000Z	0.0
default	job-a1-07ad7	team-a	team-a	1970-01-01T00:00:10.000Z	1970-01-01T00:00:20.000Z	10.0
default	job-b1-1b3f0	team-b	team-b	1970-01-01T00:00:10.000Z	1970-01-01T00:00:10.000Z	0.0
default	job-d1-d53d3	team-d	team-d	1970-01-01T00:00:10.000Z	1970-01-01T00:01:40.000Z	90.0
