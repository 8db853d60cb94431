# The cohort tree of audit-cohort-tree-lenders through the simulator (D6): Kueue's engine admits qb's b1 (12 of a100) at once, borrowing 8 up to org (capacity 4+4+2 in c, org's own 4, d's 4: 18), keeps b2 (7) waiting for 1 more until b1 ends at 10s, then admits it within c (borrowing 3); 0-10s: qa 40, cohort/c 20, cohort/org 10, qd 10 GPU-s; 10-20s: qa 2 and cohort/c 1 of the 3 (20 and 10)
setup: simulate -f tests/fixtures/audit/fidelity/cohorts.yaml --trace tests/fixtures/audit/fidelity/tree-trace.jsonl --events "$tmp/audit-cts.jsonl"
setup: audit ingest --db "$tmp/audit-cts.db" "$tmp/audit-cts.jsonl" tests/fixtures/audit/fidelity/cohorts.yaml
args: audit query --db "$tmp/audit-cts.db" "select cluster_queue, start_at, end_at, peak_amount, amount_seconds, lenders, (select group_concat(lender || '=' || (amount_milli_ms / 1e6), ' ') from (select * from d_lending order by lender)) lent from audit_borrowing"
exit: 0
--- stdout
cluster_queue	start_at	end_at	peak_amount	amount_seconds	lenders	lent
qb	1970-01-01T00:00:00.000Z	1970-01-01T00:00:20.000Z	8.0	110.0	cohort/c,cohort/org,qa,qd	cohort/c=30.0 cohort/org=10.0 qa=60.0 qd=10.0
