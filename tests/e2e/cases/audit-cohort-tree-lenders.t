# Cohorts' own quota and parents (D6): qb (cohort c) borrows 8 of a100 for 10s; c's subtree lends first, in proportion to what is unused: qa 4 and cohort/c's own 2 (40 and 20 GPU-s); the other 2 come from the rest of the parent org's subtree: org's own 4 and qd's 4 in cohort d, 1 each (10 GPU-s each)
setup: audit ingest --db "$tmp/audit-cht.db" tests/fixtures/audit/fidelity/cohorts.yaml tests/fixtures/audit/fidelity/cohort-events.jsonl
args: audit query --db "$tmp/audit-cht.db" "select l.borrower, l.lender, l.amount_milli_ms / 1e6 as gpu_seconds, b.lenders from d_lending l join d_borrowing b on b.cluster_queue = l.borrower order by l.lender"
exit: 0
--- stdout
borrower	lender	gpu_seconds	lenders
qb	cohort/c	20.0	cohort/c,cohort/org,qa,qd
qb	cohort/org	10.0	cohort/c,cohort/org,qa,qd
qb	qa	40.0	cohort/c,cohort/org,qa,qd
qb	qd	10.0	cohort/c,cohort/org,qa,qd
