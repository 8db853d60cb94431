# D11 from Kubernetes objects: a watch shows ResourceFlavor h100 DELETED (its deletionTimestamp is 09:00:00, a write at 09:00:10 took its finalizer off: removed 09:00:10.001), a100 only terminating (its finalizer holds it: Kueue still has it); w1 (2 pods of 1 GPU), pending in team-x from 09:01:00 ("ClusterQueue team-x is inactive"), still waits at the end of the evidence (09:03:00): a breach of 120 s, and team-x is inactive to the end ("-")
setup: audit ingest --db "$tmp/audit-frw.db" tests/fixtures/audit/flavor-removed/cluster.yaml tests/fixtures/audit/flavor-removed/watch.json
args: audit report --db "$tmp/audit-frw.db" --format markdown
exit: 0
after-sh: "$QF" audit query --db "$tmp/audit-frw.db" "select workload, wait_seconds, usage_at_arrival, nominal from audit_breaches" | grep -Fx "$(printf 'team-x/w1\t120.0\t0.0\t4.0')"
--- stdout
# Quotaflow audit report

Window: 2026-06-12T09:01:00.000Z to 2026-06-12T09:03:00.000Z

| cluster | cluster_queue | workloads | admitted | wait_p50_s | wait_p95_s | wait_max_s | pending | oldest_pending_s | borrowed_gpu_h | lent_gpu_h | preempted | preempting | breaches | used_gpu_h | cost |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| default | team-x | 1 | 0 | - | - | - | 1 | 120.000 | 0.000 | 0.000 | 0 | 0 | 1 | 0.000 | - |
| default | team-y | 1 | 1 | 0.000 | 0.000 | 0.000 | 0 | - | 0.000 | 0.000 | 0 | 0 | 0 | 0.033 | - |

## Inactive ClusterQueues

| cluster | cluster_queue | reason | missing_flavors | from | to | inactive_s |
| --- | --- | --- | --- | --- | --- | --- |
| default | team-x | FlavorNotFound | h100 | 2026-06-12T09:00:10.001Z | - | 120.000 |
