# A pod's request is its pod-level resources where it sets them (6 cpus,
# from the limit), as Kubernetes' PodRequests and Kueue count it: more
# than the queue's 4; the containers' 1 was counted and the Job admitted
args: simulate -f tests/fixtures/simulate/sidecar-job.yaml --submit tests/fixtures/simulate/pod-level-job.yaml
exit: 0
--- stdout
team-a/job-pooled-13709: pending (ExceedsMaxQuota): couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default, previously considered podsets requests (0) + current podset request (6) > maximum capacity (4)

ClusterQueue  admitted  borrowing  waiting  waited  longest wait  preempted  preempting
solo                 0          0        1       0           0ms          0           0
--- stderr
