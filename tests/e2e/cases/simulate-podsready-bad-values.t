# pods_ready_after_ms takes milliseconds or "never", the annotation
# quotaflow.dev/pods-ready-after a duration or never: anything else is an
# error at its place and nothing is simulated.
setup-sh: printf '{"at_ms": 0, "op": "submit", "pods_ready_after_ms": "later", "object": {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload", "metadata": {"name": "a", "namespace": "team-a"}, "spec": {"queueName": "main", "podSets": [{"name": "main", "count": 1, "template": {"spec": {"containers": [{"name": "c"}]}}}]}}}\n{"at_ms": 0, "op": "submit", "object": {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload", "metadata": {"name": "b", "namespace": "team-a", "annotations": {"quotaflow.dev/pods-ready-after": "soon"}}, "spec": {"queueName": "main", "podSets": [{"name": "main", "count": 1, "template": {"spec": {"containers": [{"name": "c"}]}}}]}}}\n' > "$tmp/pr-bad.jsonl"
args: simulate -f examples/simulate/cluster.yaml --trace "$tmp/pr-bad.jsonl"
exit: 1
stderr-has: pr-bad.jsonl:1:53: error: pods_ready_after_ms must be an integer of milliseconds from 0 to 10^15 or "never" [QF520]
stderr-has: error: annotation quotaflow.dev/pods-ready-after of team-a/b must be a duration such as 90s or 5m (at most 10^15 ms), or "never" [QF520]
