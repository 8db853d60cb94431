# D3: qa, deleted at 50 s by an audit log of level Metadata (the delete only), holds nothing then: Kueue takes its finalizer off at once, so it is gone from 50 s although no record shows the API removing it.  qb borrows 2 of a100 from 0 to 100 s: qa lends 1 until 50 s (50 GPU-seconds), qc the rest (150), and the report lists no inactive queue
setup: audit ingest --db "$tmp/audit-qde.db" tests/fixtures/audit/fidelity/cluster.yaml tests/fixtures/audit/fidelity/delete-qa-metadata.jsonl tests/fixtures/audit/fidelity/events-qb.jsonl
args: audit query --db "$tmp/audit-qde.db" "select borrower, lender, amount_milli_ms / 1e6 as gpu_seconds from d_lending order by lender"
exit: 0
after-sh: "$QF" audit report --db "$tmp/audit-qde.db" >"$tmp/audit-qde.txt" && ! grep -q 'Inactive' "$tmp/audit-qde.txt" && grep -q 'qa -> qb  0.014' "$tmp/audit-qde.txt"
--- stdout
borrower	lender	gpu_seconds
qb	qa	50.0
qb	qc	150.0
