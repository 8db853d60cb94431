# simulate --trace: a submit whose object simulate ignores (a Pod; a Job with no queue-name label Kueue does not manage) warns at its line as --submit does (QF511); the trace's fast path dropped those warnings, so the submit vanished without a word
setup-sh: printf '%s\n' '{"at_ms": 10, "op": "submit", "object": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x", "namespace": "team-a"}}}' '{"at_ms": 10, "op": "submit", "object": {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "y", "namespace": "team-a"}, "spec": {"template": {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}}}' >"$tmp/t.jsonl"
args: simulate -f examples/simulate/cluster.yaml --trace "$tmp/t.jsonl"
exit: 0
stderr-has: t.jsonl:1:41: warning: ignoring object of kind Pod [QF511]
stderr-has: t.jsonl:2:104: warning: Job team-a/y has no kueue.x-k8s.io/queue-name label
