# D3, D6: Cohort c has a deletionTimestamp of 5 s, held by a finalizer not Kueue's.  Kueue puts none on a Cohort and does not look at its deletionTimestamp (it drops a Cohort only once the API has none), so c keeps its quota and its parent org: qb's 8 borrowed GPUs over 10 s come from qa 40, cohort/c 20, cohort/org 10 and qd 10 GPU-seconds, as with no deletion (it said c was gone from 5 s: 20 uncovered)
setup: audit ingest --db "$tmp/audit-cht.db" tests/fixtures/audit/fidelity/cohort-events.jsonl tests/fixtures/audit/fidelity/cohorts.yaml tests/fixtures/audit/fidelity/cohort-c-terminating.json
args: audit query --db "$tmp/audit-cht.db" "select borrower, lender, amount_milli_ms / 1e6 as gpu_seconds from d_lending order by lender"
exit: 0
after-sh: test "$("$QF" audit query --db "$tmp/audit-cht.db" "select at, verb, kind, name from audit_policy_changes where verb = 'delete'")" = "$(printf 'at\tverb\tkind\tname\n1970-01-01T00:00:05.000Z\tdelete\tCohort\tc')"
--- stdout
borrower	lender	gpu_seconds
qb	cohort/c	20.0
qb	cohort/org	10.0
qb	qa	40.0
qb	qd	10.0
