# 30000 Workloads in one snapshot load in linear time: finding the one a
# workload repeats (merge_workload) is a lookup by key, not a scan of
# those before it (a scan took 237 s here, past the case's timeout)
setup-sh: awk 'BEGIN { for (i = 0; i < 30000; i++) printf "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"w%05d\",\"namespace\":\"team-a\"},\"spec\":{\"queueName\":\"main\",\"podSets\":[{\"name\":\"main\",\"count\":1,\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}}]}}\n", i }' >"$tmp/many-workloads.json"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/many-workloads.json" --cycles 1
exit: 0
--- stdout
ClusterQueue  admitted  borrowing  waiting  waited  longest wait  preempted  preempting
team-a               1          0    29999       0           0ms          0           0
team-b               0          0        0       0           0ms          0           0
--- stderr
