# --dump-state writes what Kueue's own CRDs accept, status included: the
# example trace finished, the same trace stopped while a preempted workload
# waits (resourceRequests, schedulingStats), and the compiled tenants demo.
needs: shared
setup: simulate -f examples/simulate/cluster.yaml --trace examples/simulate/trace.jsonl --dump-state "$tmp/done.json"
setup: simulate -f examples/simulate/cluster.yaml --trace examples/simulate/trace.jsonl --until 150ms --dump-state "$tmp/waiting.json"
setup: compile examples/tenants -o "$tmp/deploy"
setup: simulate -f "$tmp/deploy" -f examples/demo/namespaces.yaml --trace examples/demo/trace.jsonl --dump-state "$tmp/tenants.json"
args: validate --crds "$SHARED/kueue-crds" "$tmp/done.json" "$tmp/waiting.json" "$tmp/tenants.json"
stdout-has: 23 objects, 23 valid, 0 invalid, 0 skipped
stderr-not: error
