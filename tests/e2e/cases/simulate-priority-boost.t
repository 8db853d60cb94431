# simulate: with the Configuration's featureGates PriorityBoost on, wl-low (priority 0, kueue.x-k8s.io/priority-boost "100") has effective priority 100 and preempts wl-mid-1 (10) as Kueue's LowerPriority compares effective priorities; the Preempted events give base and boost. The annotation used to be ignored: wl-low waited and the events said "boost: 0".
args: simulate -f tests/fixtures/simulate/priority-boost.yaml --trace tests/fixtures/simulate/priority-boost.jsonl --events "$tmp/boost.jsonl"
exit: 0
after-sh: grep '"reason":"Preempted"' "$tmp/boost.jsonl" | grep -q '"workload":"ns/wl-mid-1".*preemptor effective priority: 100 (base: 0, boost: 100); preemptee effective priority: 10 (base: 10, boost: 0)'
after-sh: grep '"reason":"Admitted"' "$tmp/boost.jsonl" | grep -q '"time_ms":2000,.*"workload":"ns/wl-low"'
