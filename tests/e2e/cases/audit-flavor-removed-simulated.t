# D11: the platform removes ResourceFlavor h100 at 09:00:10 (an audit-log delete that no finalizer held) and creates it again at 09:01:40; the simulator, fed the same changes, admits team-x's x1 (2 GPUs, queued at 09:00:20) only then: its 80 s wait is a breach (0 + 2 <= 4, D8) and the report says team-x was inactive from 09:00:10 to 09:01:40 (80 s of it in the window). team-y's a100 was only asked to be deleted (Kueue's finalizer held it): team-y stays active
setup: simulate -f tests/fixtures/audit/flavor-removed/cluster.yaml --trace tests/fixtures/audit/flavor-removed/trace.jsonl --start 2026-06-12T09:00:00Z --events "$tmp/audit-frs.jsonl"
setup: audit ingest --db "$tmp/audit-frs.db" tests/fixtures/audit/flavor-removed/cluster.yaml tests/fixtures/audit/flavor-removed/audit-log.jsonl "$tmp/audit-frs.jsonl"
args: audit report --db "$tmp/audit-frs.db"
exit: 0
after-sh: "$QF" audit query --db "$tmp/audit-frs.db" "select workload, queued_at, admitted_at, wait_seconds, usage_at_arrival, nominal from audit_breaches" | grep -Fx "$(printf 'team-x/job-x1-df78e\t2026-06-12T09:00:20.000Z\t2026-06-12T09:01:40.000Z\t80.0\t0.0\t4.0')"
--- stdout
Window: 2026-06-12T09:00:20.000Z to 2026-06-12T09:01:50.000Z
cluster  cluster_queue  workloads  admitted  wait_p50_s  wait_p95_s  wait_max_s  pending  oldest_pending_s  borrowed_gpu_h  lent_gpu_h  preempted  preempting  breaches  used_gpu_h  cost
default  team-x         1          1         80.000      80.000      80.000      0        -                 0.000           0.000       0          0           1         0.006       -
default  team-y         1          1         0.000       0.000       0.000       0        -                 0.000           0.000       0          0           0         0.003       -

Inactive ClusterQueues (Active False: Kueue admitted nothing in them):
  default  team-x  FlavorNotFound  h100  2026-06-12T09:00:10.000Z  2026-06-12T09:01:40.000Z  80.000
