# Limits in the cohort tree (D6), with evidence Kueue would not produce: qb holds 14 of a100 for 30s and borrows 10; its borrowingLimit 9 leaves 1 uncovered; c's subtree gives 6 (qa 4: 120 GPU-s, cohort/c 2: 60); c may take only 2 from outside it (borrowingLimit), which org's level gives in proportion to what it can give, cohort/org 2 and d's subtree 1 (its lendingLimit; qd has 4 unused): 40 and 20 GPU-s; the last 1 is uncovered too (2 x 30s = 60)
setup: audit ingest --db "$tmp/audit-cll.db" tests/fixtures/audit/fidelity/cohort-limits.yaml tests/fixtures/audit/fidelity/limits-events.jsonl
args: audit query --db "$tmp/audit-cll.db" "select l.borrower, l.lender, l.amount_milli_ms / 1e6 as gpu_seconds, b.lenders from d_lending l join d_borrowing b on b.cluster_queue = l.borrower order by l.lender"
exit: 0
--- stdout
borrower	lender	gpu_seconds	lenders
qb	(uncovered)	60.0	(uncovered),cohort/c,cohort/org,qa,qd
qb	cohort/c	60.0	(uncovered),cohort/c,cohort/org,qa,qd
qb	cohort/org	40.0	(uncovered),cohort/c,cohort/org,qa,qd
qb	qa	120.0	(uncovered),cohort/c,cohort/org,qa,qd
qb	qd	20.0	(uncovered),cohort/c,cohort/org,qa,qd
