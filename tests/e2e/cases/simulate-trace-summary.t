# A trace with no output file prints the per-queue summary: admissions,
# how many borrowed, waits, preemptions (the README's trace example).
args: simulate -f examples/simulate/cluster.yaml --trace examples/simulate/trace.jsonl
exit: 0
--- stdout
ClusterQueue  admitted  borrowing  waiting  waited  longest wait  preempted  preempting
team-a               3          2        0       0           0ms          1           0
team-b               1          0        0       0           0ms          0           1
