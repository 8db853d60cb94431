# simulate: without the PriorityBoost gate (alpha, off by default) the kueue.x-k8s.io/priority-boost annotation counts nothing: wl-low (priority 0) preempts no one and waits.
setup-sh: sed 's/^featureGates: {PriorityBoost: true}$/featureGates: {PriorityBoost: false}/' tests/fixtures/simulate/priority-boost.yaml > "$tmp/boost-off.yaml"
args: simulate -f "$tmp/boost-off.yaml" --trace tests/fixtures/simulate/priority-boost.jsonl --events "$tmp/boost-off.jsonl"
exit: 0
after-sh: grep -q 'PriorityBoost: false' "$tmp/boost-off.yaml"
after-sh: ! grep -q '"reason":"Preempted"' "$tmp/boost-off.jsonl"
