# D6 with an inactive lender: team-a is stopped from 10 s to 110 s (stopPolicy Hold); Kueue (v0.9 on) keeps a stopped queue's quota in its cohort, so the simulator admits team-b's b1 (6 GPUs, 30 s) at once, borrowing 2 of team-a's unused 4, and the audit names team-a its lender (60 GPU-seconds) although team-a was inactive then, as the report says (Stopped, from the audit log's patches).  a1, queued in team-a at 20 s, is admitted at 110 s: 90 s, a breach
setup: simulate -f tests/fixtures/audit/inactive/lender.yaml --trace tests/fixtures/audit/inactive/lender-trace.jsonl --start 2026-06-12T09:00:00Z --events "$tmp/audit-ils.jsonl"
setup: audit ingest --db "$tmp/audit-ils.db" tests/fixtures/audit/inactive/lender.yaml tests/fixtures/audit/inactive/lender-audit-log.jsonl "$tmp/audit-ils.jsonl"
args: audit report --db "$tmp/audit-ils.db"
exit: 0
after-sh: "$QF" audit query --db "$tmp/audit-ils.db" "select cluster_queue, start_at, end_at, peak_amount, amount_seconds, lenders from audit_borrowing" | grep -Fx "$(printf 'team-b\t2026-06-12T09:00:20.000Z\t2026-06-12T09:00:50.000Z\t2.0\t60.0\tteam-a')"
after-sh: "$QF" audit query --db "$tmp/audit-ils.db" "select borrower, lender, amount_milli_ms from d_lending" | grep -Fx "$(printf 'team-b\tteam-a\t60000000.0')"
after-sh: "$QF" audit query --db "$tmp/audit-ils.db" "select workload, wait_seconds from audit_breaches" | grep -Fx "$(printf 'team-a/job-a1-07ad7\t90.0')"
--- stdout
Window: 2026-06-12T09:00:20.000Z to 2026-06-12T09:02:00.000Z
cluster  cluster_queue  workloads  admitted  wait_p50_s  wait_p95_s  wait_max_s  pending  oldest_pending_s  borrowed_gpu_h  lent_gpu_h  preempted  preempting  breaches  used_gpu_h  cost
default  team-a         1          1         90.000      90.000      90.000      0        -                 0.000           0.017       0          0           1         0.003       -
default  team-b         1          1         0.000       0.000       0.000       0        -                 0.017           0.000       0          0           0         0.050       -

GPU-hours lent (lender -> borrower):
  default: team-a -> team-b  0.017

Inactive ClusterQueues (Active False: Kueue admitted nothing in them):
  default  team-a  Stopped  -  2026-06-12T09:00:10.000Z  2026-06-12T09:01:50.000Z  90.000
