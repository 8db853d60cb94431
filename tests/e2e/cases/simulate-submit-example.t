# The README's --submit example: every fate names the flavour and what is
# borrowed, a workload never evaluated says why in words, and without an
# output file a per-queue summary follows.
args: simulate -f examples/simulate/cluster.yaml --submit examples/simulate/jobs.yaml
exit: 0
--- stdout
team-a/job-train-90800: admitted at 0ms in ClusterQueue team-a on flavour default, within its nominal quota (not borrowing)
team-a/job-sweep-eda54: admitted at 0ms in ClusterQueue team-a on flavour default, borrowing cpu 3 on default
team-a/job-shard-1-554da: pending (WaitingForQuota): couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed
team-a/job-shard-2-cd256: pending: queued, not evaluated yet: it has the same shape (queue, priority, requests) as team-a/job-shard-1-554da, which is waiting (WaitingForQuota); Kueue does not evaluate workloads like an inadmissible one again until quota frees up in ClusterQueue team-a or its cohort

ClusterQueue  admitted  borrowing  waiting  waited  longest wait  preempted  preempting
team-a               2          1        2       0           0ms          0           0
team-b               0          0        0       0           0ms          0           0
