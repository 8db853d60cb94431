# blockAdmission: the scheduler that waited admits the workload it waited
# on first (Kueue: waitForPodsReadyIfNeeded returns into that entry), even
# when a head of higher priority arrived meanwhile: team-a/x waits from 1s
# on team-a/h's pods, team-b/y (priority 100) arrives at 2s; at 10s h times
# out, x is admitted and y waits on x's pods.
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nwaitForPodsReady: {timeout: 10s, blockAdmission: true}\n' > "$tmp/pr-res.yaml"
setup-sh: w() { printf '{"at_ms": %s, "op": "submit", "pods_ready_after_ms": "never", "object": {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload", "metadata": {"name": "%s", "namespace": "%s"}, "spec": {"queueName": "main", "priority": %s, "podSets": [{"name": "main", "count": 1, "template": {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}]}}}\n' "$@"; }; { w 0 h team-a 0; w 1000 x team-a 0; w 2000 y team-b 100; } > "$tmp/pr-res.jsonl"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/pr-res.yaml" --trace "$tmp/pr-res.jsonl" --until 11s --dump-state "$tmp/pr-res.json"
exit: 0
after-sh: python3 -c 'import json,sys; d={o["metadata"]["name"]: o for o in json.load(open(sys.argv[1]))["items"] if o["kind"] == "Workload"}; c=lambda n: {x["type"]: x for x in d[n]["status"]["conditions"]}["QuotaReserved"]; assert (c("x")["status"], c("x")["lastTransitionTime"]) == ("True", "1970-01-01T00:00:10Z"), c("x"); assert (c("y")["status"], c("y")["reason"]) == ("False", "WaitingForPodsReady"), c("y")' "$tmp/pr-res.json"
