# Borrowing by construction: team-a borrows 2 GPUs from team-b until the reclaim at 10s and again from 20s; team-c borrows 3 of team-d's GPUs until it finishes at 100s
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/audit-sc.jsonl"
setup: audit ingest --db "$tmp/audit-borrowing.db" "$tmp/audit-sc.jsonl" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/audit-borrowing.db" "select * from audit_borrowing"
exit: 0
--- stdout
cluster	cluster_queue	cohort	flavor	resource	start_at	end_at	peak_amount	amount_seconds	workloads	lenders
default	team-a	alpha	h100	nvidia.com/gpu	1970-01-01T00:00:00.000Z	1970-01-01T00:00:10.000Z	2.0	20.0	team-a/job-a1-07ad7	team-b
default	team-c	beta	h100	nvidia.com/gpu	1970-01-01T00:00:00.000Z	1970-01-01T00:01:40.000Z	3.0	300.0	team-c/job-c1-29fde	team-d
default	team-a	alpha	h100	nvidia.com/gpu	1970-01-01T00:00:20.000Z	1970-01-01T00:02:00.000Z	2.0	200.0	team-a/job-a1-07ad7	team-b
