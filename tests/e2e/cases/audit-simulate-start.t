# A day simulated with --start is audited on its own dates (docs/audit.md worked example, anchored at 2026-11-27T09:00:00Z): the same waits, at 09:00 that day instead of 1970
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --start 2026-11-27T09:00:00Z --events "$tmp/audit-start.jsonl"
setup: audit ingest --db "$tmp/audit-start.db" tests/fixtures/audit/cluster.yaml "$tmp/audit-start.jsonl"
args: audit query --db "$tmp/audit-start.db" "select * from audit_waits"
exit: 0
--- stdout
cluster	workload	namespace	cluster_queue	queued_at	admitted_at	wait_seconds
default	job-a1-07ad7	team-a	team-a	2026-11-27T09:00:00.000Z	2026-11-27T09:00:00.000Z	0.0
default	job-c1-29fde	team-c	team-c	2026-11-27T09:00:00.000Z	2026-11-27T09:00:00.000Z	0.0
default	job-a1-07ad7	team-a	team-a	2026-11-27T09:00:10.000Z	2026-11-27T09:00:20.000Z	10.0
default	job-b1-1b3f0	team-b	team-b	2026-11-27T09:00:10.000Z	2026-11-27T09:00:10.000Z	0.0
default	job-d1-d53d3	team-d	team-d	2026-11-27T09:00:10.000Z	2026-11-27T09:01:40.000Z	90.0
