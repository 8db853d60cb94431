# The report of the worked example (docs/audit.md): waits, GPU-hours
# borrowed and lent (who lent to whom), preemptions suffered and caused,
# the breach, GPU-hours used and their cost from the Pool's price
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/audit-rep.jsonl"
setup: audit ingest --db "$tmp/audit-rep.db" "$tmp/audit-rep.jsonl" tests/fixtures/audit/cluster.yaml tests/fixtures/audit/pool.yaml
args: audit report --db "$tmp/audit-rep.db"
--- stdout
Window: 1970-01-01T00:00:00.000Z to 1970-01-01T00:02:00.000Z
cluster  cluster_queue  workloads  admitted  wait_p50_s  wait_p95_s  wait_max_s  pending  oldest_pending_s  borrowed_gpu_h  lent_gpu_h  preempted  preempting  breaches  used_gpu_h  cost
default  team-a         1          2         0.000       10.000      10.000      0        -                 0.061           0.000       1          0           0         0.183       0.46
default  team-b         1          1         0.000       0.000       0.000       0        -                 0.000           0.061       0          1           0         0.011       0.03
default  team-c         1          1         0.000       0.000       0.000       0        -                 0.083           0.000       0          0           0         0.194       0.49
default  team-d         1          1         90.000      90.000      90.000      0        -                 0.000           0.083       0          0           1         0.003       0.01

GPU-hours lent (lender -> borrower):
  default: team-b -> team-a  0.061
  default: team-d -> team-c  0.083
