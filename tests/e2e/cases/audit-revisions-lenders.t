# Cohort membership over time (D3, D6): q3 is in cohort beta until its revision of 40s puts it in alpha, so q2 alone lends q1's 2 GPUs for 0-40s (80 GPU-s) and q2 and q3 share them 1:1 for 40-60s (20 GPU-s each); from 80s q1 borrows 1, half from each
setup: simulate -f tests/fixtures/audit/revise/cluster.yaml --trace tests/fixtures/audit/revise/trace.jsonl --events "$tmp/audit-rvl.jsonl"
setup: audit ingest --db "$tmp/audit-rvl.db" "$tmp/audit-rvl.jsonl" tests/fixtures/audit/revise/cluster.yaml tests/fixtures/audit/revise/revisions.yaml
args: audit query --db "$tmp/audit-rvl.db" "select borrower, lender, amount_milli_ms / 1e6 as gpu_seconds, start_ms, end_ms from d_lending order by start_ms, lender"
exit: 0
--- stdout
borrower	lender	gpu_seconds	start_ms	end_ms
q1	q2	100.0	0	60000
q1	q3	20.0	0	60000
q1	q2	5.0	80000	90000
q1	q3	5.0	80000	90000
q1	(uncovered)	10.0	90000	100000
