# simulate: objectRetentionPolicies.workloads.afterDeactivatedByKueue (5s) deletes the Job whose Workload a Rejected check deactivated at 1s, with that Workload, at 6s; a Workload made as such is not a Job's and stays (Kueue: jobframework reconciler.go handleWorkloadAfterDeactivatedPolicy)
setup: simulate -f tests/fixtures/simulate/retention-deactivated.yaml --trace tests/fixtures/simulate/retention-deactivated.jsonl --until 5s --dump-state "$tmp/before.json"
args: simulate -f tests/fixtures/simulate/retention-deactivated.yaml --trace tests/fixtures/simulate/retention-deactivated.jsonl --until 7s --dump-state "$tmp/after.json"
exit: 0
after-sh: grep -q '"name": *"job-j-c7d96"' "$tmp/before.json"
after-sh: ! grep -q '"name": *"job-j-c7d96"' "$tmp/after.json"
after-sh: grep -q '"name": *"w"' "$tmp/after.json"
