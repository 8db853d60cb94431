# A ClusterQueue deleted (an audit-log delete, D3) has no quota and no cohort from then on: qa, deleted at 50s, lends qb 1 of a100 until then only (50 GPU-s; qc lends 150), and its a1 (2 a100 at 60-80s) borrows from no one
setup: audit ingest --db "$tmp/audit-qdl.db" tests/fixtures/audit/fidelity/cluster.yaml tests/fixtures/audit/fidelity/delete-qa.jsonl tests/fixtures/audit/fidelity/events.jsonl
args: audit query --db "$tmp/audit-qdl.db" "select borrower, lender, amount_milli_ms / 1e6 as gpu_seconds, start_ms, end_ms from d_lending order by start_ms, borrower, lender"
exit: 0
--- stdout
borrower	lender	gpu_seconds	start_ms	end_ms
qb	qa	50.0	0	100000
qb	qc	150.0	0	100000
