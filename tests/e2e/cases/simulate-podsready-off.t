# Without waitForPodsReady (no Configuration) a pods delay only moves the
# run: nothing is evicted, no PodsReady condition is written; the
# DisableWaitForPodsReady gate turns a configured one off the same way.
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nwaitForPodsReady: {timeout: 10s}\nfeatureGates: {DisableWaitForPodsReady: true}\n' > "$tmp/pr-off.yaml"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/pr-off.yaml" --trace tests/fixtures/simulate/podsready-trace.jsonl --until 60s --events "$tmp/pr-off.jsonl" --dump-state "$tmp/pr-off.json"
exit: 0
stderr-not: DisableWaitForPodsReady
after-sh: ! grep -q PodsReady "$tmp/pr-off.jsonl" "$tmp/pr-off.json"
after-sh: grep -q '"time_ms":8000,"type":"Normal","reason":"Finished","workload":"team-a/job-slow-7a8cd"' "$tmp/pr-off.jsonl"
after-sh: test "$("$QF" simulate -f examples/simulate/cluster.yaml --trace tests/fixtures/simulate/podsready-trace.jsonl --until 60s --events - | grep -c 'PodsReady')" = 0
