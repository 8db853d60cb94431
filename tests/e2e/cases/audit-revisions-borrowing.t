# Quota rows in force at each instant (D3, D4): q1 (nominal 4) runs x1 (6 GPUs) 0-100s and borrows 2 in cohort alpha; its quota rises to 8 at 60s (the interval ends then, not at the next usage change), falls to 5 at 80s (borrowing 1 starts then, listing the holder x1), and q1 moves to cohort beta at 90s (the interval is split: beta has no other member, so the cohort's own quota lends)
setup: simulate -f tests/fixtures/audit/revise/cluster.yaml --trace tests/fixtures/audit/revise/trace.jsonl --events "$tmp/audit-rv.jsonl"
setup: audit ingest --db "$tmp/audit-rv.db" "$tmp/audit-rv.jsonl" tests/fixtures/audit/revise/cluster.yaml tests/fixtures/audit/revise/revisions.yaml
args: audit query --db "$tmp/audit-rv.db" "select * from audit_borrowing"
exit: 0
--- stdout
cluster	cluster_queue	cohort	flavor	resource	start_at	end_at	peak_amount	amount_seconds	workloads	lenders
default	q1	alpha	h100	nvidia.com/gpu	1970-01-01T00:00:00.000Z	1970-01-01T00:01:00.000Z	2.0	120.0	q1/job-x1-df78e	q2,q3
default	q1	alpha	h100	nvidia.com/gpu	1970-01-01T00:01:20.000Z	1970-01-01T00:01:30.000Z	1.0	10.0	q1/job-x1-df78e	q2,q3
default	q1	beta	h100	nvidia.com/gpu	1970-01-01T00:01:30.000Z	1970-01-01T00:01:40.000Z	1.0	10.0	q1/job-x1-df78e	(uncovered)
