# D11 from a ClusterQueue's own Active condition (a dump): team-z names ResourceFlavor h200, never created, which no evidence shows removed; its condition (False, FlavorNotFound, "references missing ResourceFlavor(s): h200." since 09:00:00) makes it inactive to the end of the evidence, and z1 (2 pods of 1 GPU), pending there from 09:01:00, is a breach of 120 s (0 + 2 <= 4, D8).  team-w's Kueue v0.10 message ("[h300 h200]", then an AdmissionCheck) gives both flavors, sorted, team-o's v0.8 one ("Can't admit new workloads: FlavorNotFound") none; team-v's spec stops it (HoldAndDrain) from its write at 09:02:30, though its status still says Ready; team-y (Active True) is not listed
setup: audit ingest --db "$tmp/audit-ic.db" tests/fixtures/audit/inactive/dump.yaml
args: audit report --db "$tmp/audit-ic.db"
exit: 0
after-sh: "$QF" audit query --db "$tmp/audit-ic.db" "select workload, wait_seconds, usage_at_arrival, nominal from audit_breaches" | grep -Fx "$(printf 'team-z/z1\t120.0\t0.0\t4.0')"
--- stdout
Window: 2026-06-12T09:01:00.000Z to 2026-06-12T09:03:00.000Z
cluster  cluster_queue  workloads  admitted  wait_p50_s  wait_p95_s  wait_max_s  pending  oldest_pending_s  borrowed_gpu_h  lent_gpu_h  preempted  preempting  breaches  used_gpu_h  cost
default  team-o         0          0         -           -           -           0        -                 0.000           0.000       0          0           0         0.000       -
default  team-v         0          0         -           -           -           0        -                 0.000           0.000       0          0           0         0.000       -
default  team-w         0          0         -           -           -           0        -                 0.000           0.000       0          0           0         0.000       -
default  team-y         1          1         0.000       0.000       0.000       0        -                 0.000           0.000       0          0           0         0.033       -
default  team-z         1          0         -           -           -           1        120.000           0.000           0.000       0          0           1         0.000       -

Inactive ClusterQueues (Active False: Kueue admitted nothing in them):
  default  team-o  FlavorNotFound  -  2026-06-12T08:30:00.000Z  -  120.000
  default  team-v  Stopped  -  2026-06-12T09:02:30.000Z  -  30.000
  default  team-w  FlavorNotFound  h200,h300  2026-06-12T09:02:00.000Z  -  60.000
  default  team-z  FlavorNotFound  h200  2026-06-12T09:00:00.000Z  -  120.000
