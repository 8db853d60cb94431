# With UnadmittedWorkloadsObservability off, a workload blockAdmission holds
# back has Kueue's legacy reason Waiting (UnadmittedWorkloadReasonWithFallback).
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nwaitForPodsReady: {enable: true}\nfeatureGates: {UnadmittedWorkloadsObservability: false}\n' > "$tmp/pr-lg.yaml"
setup-sh: w() { printf '{"at_ms": %s, "op": "submit", "pods_ready_after_ms": "never", "object": {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload", "metadata": {"name": "%s", "namespace": "%s"}, "spec": {"queueName": "main", "podSets": [{"name": "main", "count": 1, "template": {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}]}}}\n' "$@"; }; { w 0 stuck team-a; w 1000 next team-b; } > "$tmp/pr-lg.jsonl"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/pr-lg.yaml" --trace "$tmp/pr-lg.jsonl" --until 2s --dump-state "$tmp/pr-lg.json"
exit: 0
after-sh: python3 -c 'import json,sys; d={o["metadata"]["name"]: o for o in json.load(open(sys.argv[1]))["items"] if o["kind"] == "Workload"}; c={x["type"]: x for x in d["next"]["status"]["conditions"]}["QuotaReserved"]; assert (c["status"], c["reason"], c["message"]) == ("False", "Waiting", "waiting for all admitted workloads to be in PodsReady condition"), c' "$tmp/pr-lg.json"
