# The same Workload in two -f files is one workload (waiting: 1), as an
# identical policy object given twice is one object; it was two
args: simulate -f examples/simulate/cluster.yaml -f tests/fixtures/simulate/workload-twice
exit: 0
--- stdout
ClusterQueue  admitted  borrowing  waiting  waited  longest wait  preempted  preempting
team-a               0          0        1       0           0ms          0           0
team-b               0          0        0       0           0ms          0           0
--- stderr
