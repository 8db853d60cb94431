# --submit reports where and when each new arrival is admitted
args: simulate -f examples/simulate/cluster.yaml --submit tests/fixtures/simulate/submit.yaml
exit: 0
stdout-has: team-a/first: admitted at 0ms in ClusterQueue team-a
stdout-has: team-b/too-big: pending (ExceedsMaxQuota): couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default, previously considered podsets requests (0) + current podset request (9) > maximum capacity (8)
