# The request of a pending event is what the queue's quota counts (docs/simulate.md --events): a pod set's reclaimable pods left out (4 - 1 = 3 pods of 2 GPUs: 6, as the message says) and pods = the pod count where the ClusterQueue covers pods
args: simulate -f tests/fixtures/audit/pods/cluster.yaml -f tests/fixtures/audit/pods/reclaimable.yaml --events "$tmp/sim-req-pods.jsonl"
exit: 0
after-sh: grep -F '"request":{"main":{"nvidia.com/gpu":"6","pods":"3"}}' "$tmp/sim-req-pods.jsonl"
after-sh: grep -F 'current podset request (6)' "$tmp/sim-req-pods.jsonl"
