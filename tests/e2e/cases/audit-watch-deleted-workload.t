# A Workload that `kubectl get workloads -w --output-watch-events -o json` shows DELETED without deletionTimestamp (docs/audit.md D10) is gone 1 ms after the latest time it carries (its status write at 09:00:30): w1's borrowing of 2 GPUs ends there (60 GPU-seconds), not at the end of the evidence (09:01:40)
setup: audit ingest --db "$tmp/audit-wdw.db" tests/fixtures/audit/cluster.yaml tests/fixtures/audit/watch-deleted.json
args: audit query --db "$tmp/audit-wdw.db" "select cluster_queue, start_at, end_at, peak_amount, amount_seconds, workloads from audit_borrowing"
exit: 0
--- stdout
cluster_queue	start_at	end_at	peak_amount	amount_seconds	workloads
team-a	2026-06-12T09:00:00.000Z	2026-06-12T09:00:30.001Z	2.0	60.002	team-a/w1
