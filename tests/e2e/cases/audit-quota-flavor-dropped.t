# A snapshot states all the quota of its ClusterQueue (D3): qa's revision of 50s lists h100 only, so its a100 quota is 0 from then on. qb (4 a100) runs b1 (6) from 0s to 100s and borrows 2: qa and qc (4 unused each) lend 1 each until 50s, then qc alone (qa lends 50 GPU-s, qc 150); qa's a1 (2 a100, 60-80s) borrows against a nominal of 0, from qc, which still has 4 unused after qa took its share first (name order)
setup: audit ingest --db "$tmp/audit-qfd.db" tests/fixtures/audit/fidelity/cluster.yaml tests/fixtures/audit/fidelity/drop-a100.yaml tests/fixtures/audit/fidelity/events.jsonl
args: audit query --db "$tmp/audit-qfd.db" "select b.cluster_queue, b.flavor, b.start_at, b.end_at, b.peak_amount, b.amount_seconds, b.workloads, b.lenders, (select group_concat(lender || '=' || (amount_milli_ms / 1e6), ' ') from d_lending l where l.borrower = b.cluster_queue and l.start_ms = strftime('%s', b.start_at) * 1000) lent from audit_borrowing b"
exit: 0
--- stdout
cluster_queue	flavor	start_at	end_at	peak_amount	amount_seconds	workloads	lenders	lent
qb	a100	1970-01-01T00:00:00.000Z	1970-01-01T00:01:40.000Z	2.0	200.0	qb/b1	qa,qc	qa=50.0 qc=150.0
qa	a100	1970-01-01T00:01:00.000Z	1970-01-01T00:01:20.000Z	2.0	40.0	qa/a1	qc	qc=40.0
