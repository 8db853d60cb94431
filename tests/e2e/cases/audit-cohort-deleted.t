# A Cohort over time (D3, D6): c is deleted at 5s (audit log, ingested after the events), so from then on it has no quota and no parent: for 0-5s qb's 8 borrowed GPUs come from qa 4, cohort/c 2, cohort/org 1, qd 1; for 5-10s from qa 4 and nothing else (uncovered 4: what no quota in the evidence covers)
setup: audit ingest --db "$tmp/audit-chd.db" tests/fixtures/audit/fidelity/cohort-events.jsonl
setup: audit ingest --db "$tmp/audit-chd.db" tests/fixtures/audit/fidelity/cohorts.yaml
setup: audit ingest --db "$tmp/audit-chd.db" tests/fixtures/audit/fidelity/delete-c.jsonl
args: audit query --db "$tmp/audit-chd.db" "select borrower, lender, amount_milli_ms / 1e6 as gpu_seconds from d_lending order by lender"
exit: 0
--- stdout
borrower	lender	gpu_seconds
qb	(uncovered)	20.0
qb	cohort/c	10.0
qb	cohort/org	5.0
qb	qa	40.0
qb	qd	5.0
