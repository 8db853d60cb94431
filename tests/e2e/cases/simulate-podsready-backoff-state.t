# After a PodsReady timeout the dump carries status.requeueState (count,
# and requeueAt while the backoff runs, in whole seconds) and a Job's
# Workload has PodsReady=False, WaitForStart; at 12s team-a/job-stuck
# waits out its 5s backoff (requeueAt 15s).
args: simulate -f examples/simulate/cluster.yaml -f tests/fixtures/simulate/podsready-config.yaml --trace tests/fixtures/simulate/podsready-trace.jsonl --until 12s --dump-state "$tmp/pr-state12.json"
exit: 0
after-sh: python3 -c 'import json,sys; d={o["metadata"]["name"]: o for o in json.load(open(sys.argv[1]))["items"] if o["kind"] == "Workload"}; s=d["job-stuck-e011d"]["status"]; assert s["requeueState"] == {"count": 1, "requeueAt": "1970-01-01T00:00:15Z"}, s; c={x["type"]: x for x in s["conditions"]}; assert (c["Evicted"]["reason"], c["Requeued"]["status"], c["Requeued"]["reason"]) == ("PodsReadyTimeout", "False", "PodsReadyTimeout"), c' "$tmp/pr-state12.json"
