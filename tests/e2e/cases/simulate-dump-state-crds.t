# --dump-state writes what Kueue's own CRDs accept, status included: the
# example trace finished, the same trace stopped while a preempted workload
# waits (resourceRequests, schedulingStats), the compiled tenants demo, and
# v1beta1 objects with a stopped ClusterQueue (its dump stays v1beta1);
# their LocalQueues too.
needs: shared
setup: simulate -f examples/simulate/cluster.yaml --trace examples/simulate/trace.jsonl --dump-state "$tmp/done.json"
setup: simulate -f examples/simulate/cluster.yaml --trace examples/simulate/trace.jsonl --until 150ms --dump-state "$tmp/waiting.json"
setup: compile examples/tenants -o "$tmp/deploy"
setup: simulate -f "$tmp/deploy" -f examples/demo/namespaces.yaml --trace examples/demo/trace.jsonl --dump-state "$tmp/tenants.json"
setup: simulate -f tests/fixtures/simulate/dump-v1beta1.yaml --dump-state "$tmp/v1beta1.json"
args: validate --crds "$SHARED/kueue-crds" "$tmp/done.json" "$tmp/waiting.json" "$tmp/tenants.json" "$tmp/v1beta1.json"
stdout-has: 43 objects, 43 valid, 0 invalid, 0 skipped
stderr-not: error
