# An admission check's Retry with requeue_after_seconds: while the backoff runs the dump writes status.requeueState.requeueAt (its end; no count, which only PodsReady timeouts raise), as Kueue's workload controller writes it (SetRequeueState); once it is over the workload is queued again and the requeueState goes. Before, a backoff of a check was kept but never written.
setup-sh: printf '{"at_ms": 1000, "op": "check", "workload": "team-a/dated", "check": "prov", "state": "Retry", "requeue_after_seconds": 60}\n' > "$tmp/retry.jsonl"
setup: simulate -f tests/fixtures/simulate/v1beta1-checks.yaml -f tests/fixtures/simulate/dated-workload.yaml --trace "$tmp/retry.jsonl" --until 30s --dump-state "$tmp/during.json"
setup: simulate -f tests/fixtures/simulate/v1beta1-checks.yaml -f tests/fixtures/simulate/dated-workload.yaml --trace "$tmp/retry.jsonl" --until 120s --dump-state "$tmp/after.json"
args: simulate -f tests/fixtures/simulate/v1beta1-checks.yaml -f tests/fixtures/simulate/dated-workload.yaml --trace "$tmp/retry.jsonl" --until 30s
exit: 0
after-sh: tr -d '\n' < "$tmp/during.json" | tr -s ' ' | grep -F '"requeueState": { "requeueAt": "2026-01-01T00:01:01Z" }'
after-sh: ! grep -q requeueState "$tmp/after.json"
