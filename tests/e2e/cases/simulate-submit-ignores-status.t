# A --submit Workload is created at time 0: its status and
# creationTimestamp are not read (the API server drops and sets them on
# create), so it is scheduled like any other, and --start may come before
# the timestamp it carried
args: simulate -f examples/simulate/cluster.yaml --submit tests/fixtures/simulate/submit-with-status.yaml --start 2026-11-01T00:00:00Z
exit: 0
--- stdout
team-a/copied: admitted at 0ms in ClusterQueue team-a on flavour default, within its nominal quota (not borrowing)

ClusterQueue  admitted  borrowing  waiting  waited  longest wait  preempted  preempting
team-a               1          0        0       0           0ms          0           0
team-b               0          0        0       0           0ms          0           0
--- stderr
