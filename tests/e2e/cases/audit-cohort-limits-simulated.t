# Limits in the cohort tree (D6) through the simulator: c may take 2 from outside it (borrowingLimit), d give 1 (lendingLimit), so Kueue's engine admits qb's b1 (12 of a100, 30s) at once, borrowing 8 (qa 4, cohort/c 2, then 2 from org's level, where cohort/org has 2 and d's subtree 1 to give), and keeps b2 (1) waiting until b1 ends (it would fit without c's limit); the audit credits the same: qa 120, cohort/c 60 GPU-s, org's 2 in proportion 2:1, cohort/org 40 and qd 20 (not 20 and 40: qd would lend 4/3 GPU past d's limit of 1), nothing uncovered
setup: simulate -f tests/fixtures/audit/fidelity/cohort-limits.yaml --trace tests/fixtures/audit/fidelity/limits-trace.jsonl --events "$tmp/audit-cls.jsonl"
setup: audit ingest --db "$tmp/audit-cls.db" "$tmp/audit-cls.jsonl" tests/fixtures/audit/fidelity/cohort-limits.yaml
args: audit query --db "$tmp/audit-cls.db" "select cluster_queue, start_at, end_at, peak_amount, amount_seconds, lenders, (select group_concat(lender || '=' || (amount_milli_ms / 1e6), ' ') from (select * from d_lending order by lender)) lent, (select group_concat(workload || ':' || wait_seconds, ' ') from audit_waits) waits from audit_borrowing"
exit: 0
--- stdout
cluster_queue	start_at	end_at	peak_amount	amount_seconds	lenders	lent	waits
qb	1970-01-01T00:00:00.000Z	1970-01-01T00:00:30.000Z	8.0	240.0	cohort/c,cohort/org,qa,qd	cohort/c=60.0 cohort/org=40.0 qa=120.0 qd=20.0	job-b1-1b3f0:0.0 job-b2-31fe3:29.0
