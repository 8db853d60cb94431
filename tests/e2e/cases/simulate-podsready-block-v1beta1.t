# v1beta1 waitForPodsReady with enable: true blocks admission by default
# (Kueue's conversion sets blockAdmission true): while team-a/stuck's pods
# are not ready, team-b/next fits but waits (WaitingForPodsReady, no
# event) until stuck times out at 5m.
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nwaitForPodsReady: {enable: true}\n' > "$tmp/pr-v1.yaml"
setup-sh: printf '{"at_ms": 0, "op": "submit", "pods_ready_after_ms": "never", "object": {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload", "metadata": {"name": "stuck", "namespace": "team-a"}, "spec": {"queueName": "main", "podSets": [{"name": "main", "count": 1, "template": {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}]}}}\n{"at_ms": 1000, "op": "submit", "object": {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload", "metadata": {"name": "next", "namespace": "team-b"}, "spec": {"queueName": "main", "podSets": [{"name": "main", "count": 1, "template": {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}]}}}\n' > "$tmp/pr-v1.jsonl"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/pr-v1.yaml" --trace "$tmp/pr-v1.jsonl" --until 2s --dump-state "$tmp/pr-v1.json"
exit: 0
after-sh: python3 -c 'import json,sys; d={o["metadata"]["name"]: o for o in json.load(open(sys.argv[1]))["items"] if o["kind"] == "Workload"}; c={x["type"]: x for x in d["next"]["status"]["conditions"]}["QuotaReserved"]; assert (c["status"], c["reason"], c["message"]) == ("False", "WaitingForPodsReady", "waiting for all admitted workloads to be in PodsReady condition"), c' "$tmp/pr-v1.json"
after-sh: "$QF" simulate -f examples/simulate/cluster.yaml -f "$tmp/pr-v1.yaml" --trace "$tmp/pr-v1.jsonl" --until 301s --events - | grep -q '"time_ms":300000,"type":"Normal","reason":"QuotaReserved","workload":"team-b/next"'
after-sh: ! "$QF" simulate -f examples/simulate/cluster.yaml -f "$tmp/pr-v1.yaml" --trace "$tmp/pr-v1.jsonl" --until 2s --events - | grep -q WaitingForPodsReady
