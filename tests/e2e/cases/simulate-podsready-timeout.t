# waitForPodsReady (v1beta2 block, timeout 10s, backoffLimitCount 1,
# backoffBaseSeconds 5): pods that are never ready, or ready after the
# timeout (the annotation's 20s), are evicted at 10s (PodsReadyTimeout),
# readmitted after the 5s backoff and deactivated at the second timeout;
# pods ready in 3s are not, and the 5s run starts then (finished at 8s).
args: simulate -f examples/simulate/cluster.yaml -f tests/fixtures/simulate/podsready-config.yaml --trace tests/fixtures/simulate/podsready-trace.jsonl --events "$tmp/pr-events.jsonl" --dump-state "$tmp/pr-state.json"
exit: 0
after-sh: grep -q '"time_ms":8000,"type":"Normal","reason":"Finished","workload":"team-a/job-slow-7a8cd"' "$tmp/pr-events.jsonl"
after-sh: grep -q '"time_ms":10000,"type":"Normal","reason":"EvictedDueToPodsReadyTimeout","workload":"team-a/job-stuck-e011d","clusterQueue":"team-a","message":"Exceeded the PodsReady timeout team-a/job-stuck-e011d"' "$tmp/pr-events.jsonl"
after-sh: grep -q '"time_ms":15000,"type":"Normal","reason":"Admitted","workload":"team-a/job-stuck-e011d"' "$tmp/pr-events.jsonl"
after-sh: grep -q '"time_ms":25000,"type":"Normal","reason":"EvictedDueToDeactivatedDueToRequeuingLimitExceeded","workload":"team-a/job-later-576ce"' "$tmp/pr-events.jsonl"
after-sh: python3 -c 'import json,sys; d={o["metadata"]["name"]: o for o in json.load(open(sys.argv[1]))["items"] if o["kind"] == "Workload"}; s=d["job-stuck-e011d"]; assert s["spec"]["active"] is False, s; assert "requeueState" not in s["status"], s; assert s["status"]["schedulingStats"]["evictions"] == [{"count": 1, "reason": "PodsReadyTimeout", "underlyingCause": "WaitForStart"}, {"count": 1, "reason": "Deactivated", "underlyingCause": "RequeuingLimitExceeded"}], s; c={x["type"]: x for x in s["status"]["conditions"]}; assert (c["PodsReady"]["status"], c["PodsReady"]["reason"], c["PodsReady"]["message"]) == ("False", "WaitForStart", "Not all pods are ready or succeeded"), c; f={x["type"]: x for x in d["job-slow-7a8cd"]["status"]["conditions"]}; assert (f["PodsReady"]["status"], f["PodsReady"]["reason"], f["PodsReady"]["lastTransitionTime"], f["PodsReady"]["message"]) == ("True", "Started", "1970-01-01T00:00:03Z", "All pods reached readiness and the workload is running"), f' "$tmp/pr-state.json"
