# A dump of Jobs and Workloads (kubectl get ...,jobs,workloads) holds each
# managed Job twice: as the Job and as the Workload Kueue made for it.  The
# Workload stands for the Job, as Kueue's job reconciler makes no second
# one: when train finishes (named by its Job), eval is admitted.  Each Job
# was a second workload: a phantom train, waiting before eval, took the
# freed quota and eval waited on.
args: simulate -f tests/fixtures/simulate/dump-jobs-and-workloads.yaml --trace tests/fixtures/simulate/dump-jobs-finish-train.jsonl
exit: 0
--- stdout
ClusterQueue  admitted  borrowing  waiting  waited  longest wait  preempted  preempting
team-a               1          0        0       1        1000ms          0           0
--- stderr
