# D3, D6, D8, D11 with a terminating ClusterQueue: team-a (4 GPUs, never reclaims) is deleted at 20 s while a1 holds 1 GPU, and Kueue removes it when a1 finishes at 100 s (audit log: the delete leaves Kueue's finalizer, Kueue's update at 100 s takes it off).  Kueue keeps a terminating queue's quota in its cohort, so the simulator admits b3 (6 GPUs) at 70 s borrowing 2 of team-a's 3 unused, and the audit names team-a the lender of both of team-b's intervals (180 and 40 GPU-seconds; it said (uncovered) from 20 s on).  a2 (2 GPUs), queued in team-a at 10 s while b1 borrowed its quota, is never admitted: waiting in a queue being deleted is no breach (it was one of 110 s).  The report lists team-a Terminating from 20 s to its removal
setup: simulate -f tests/fixtures/audit/terminating/cluster.yaml --trace tests/fixtures/audit/terminating/trace.jsonl --start 2026-06-12T09:00:00Z --events "$tmp/audit-tsim.jsonl"
setup: audit ingest --db "$tmp/audit-tsim.db" tests/fixtures/audit/terminating/cluster.yaml tests/fixtures/audit/terminating/audit-log.jsonl "$tmp/audit-tsim.jsonl"
args: audit report --db "$tmp/audit-tsim.db"
exit: 0
after-sh: test "$("$QF" audit query --db "$tmp/audit-tsim.db" "select cluster_queue, start_at, end_at, peak_amount, amount_seconds, lenders from audit_borrowing")" = "$(printf 'cluster_queue\tstart_at\tend_at\tpeak_amount\tamount_seconds\tlenders\nteam-b\t2026-06-12T09:00:00.000Z\t2026-06-12T09:01:00.000Z\t3.0\t180.0\tteam-a\nteam-b\t2026-06-12T09:01:10.000Z\t2026-06-12T09:01:30.000Z\t2.0\t40.0\tteam-a')"
after-sh: test "$("$QF" audit query --db "$tmp/audit-tsim.db" "select borrower, lender, amount_milli_ms from d_lending order by start_ms")" = "$(printf 'borrower\tlender\tamount_milli_ms\nteam-b\tteam-a\t180000000.0\nteam-b\tteam-a\t40000000.0')"
after-sh: test "$("$QF" audit query --db "$tmp/audit-tsim.db" "select count(*) from audit_breaches")" = "$(printf 'count(*)\n0')"
after-sh: "$QF" audit query --db "$tmp/audit-tsim.db" "select workload, queued_at, coalesce(admitted_at, '-') from audit_waits" | grep -Fx "$(printf 'job-a2-d218f\t2026-06-12T09:00:10.000Z\t-')"
--- stdout
Window: 2026-06-12T09:00:00.000Z to 2026-06-12T09:02:00.000Z
cluster  cluster_queue  workloads  admitted  wait_p50_s  wait_p95_s  wait_max_s  pending  oldest_pending_s  borrowed_gpu_h  lent_gpu_h  preempted  preempting  breaches  used_gpu_h  cost
default  team-a         2          1         0.000       0.000       0.000       1        110.000           0.000           0.061       0          0           0         0.028       -
default  team-b         3          3         0.000       0.000       0.000       0        -                 0.061           0.000       0          0           0         0.153       -

GPU-hours lent (lender -> borrower):
  default: team-a -> team-b  0.061

Inactive ClusterQueues (Active False: Kueue admitted nothing in them):
  default  team-a  Terminating  -  2026-06-12T09:00:20.000Z  2026-06-12T09:01:40.000Z  80.000
