# A holder loaded with PodsReady=False, WaitForRecovery times out
# recoveryTimeout (3m) after that condition, and its eviction is counted
# with underlyingCause WaitForRecovery (Kueue: admittedNotReadyWorkload).
args: simulate -f tests/conformance/cases/anr-recovery-evicted.yaml --until 3m --dump-state "$tmp/pr-rec.json"
exit: 0
after-sh: python3 -c 'import json,sys; w=[o for o in json.load(open(sys.argv[1]))["items"] if o["kind"] == "Workload"][0]; assert w["status"]["schedulingStats"]["evictions"] == [{"count": 1, "reason": "PodsReadyTimeout", "underlyingCause": "WaitForRecovery"}], w["status"]' "$tmp/pr-rec.json"
