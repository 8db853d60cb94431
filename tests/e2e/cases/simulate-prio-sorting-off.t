# simulate: featureGates PrioritySortingWithinCohort false in the Configuration: the cycle orders the heads of a cohort without priority (Kueue's makeClassicalIterator), so the older old-low (priority 0) takes the room both need before new-high (10); with the gate on (the fixture as written, Kueue's default) new-high goes first. The gate used to be ignored.
setup-sh: sed 's/PrioritySortingWithinCohort: true/PrioritySortingWithinCohort: false/' tests/fixtures/simulate/prio-sorting.yaml > "$tmp/ps-off.yaml"
setup: simulate -f tests/fixtures/simulate/prio-sorting.yaml --dump-state "$tmp/ps-on.json"
args: simulate -f "$tmp/ps-off.yaml" --dump-state "$tmp/ps-off.json"
exit: 0
after-sh: grep -q 'PrioritySortingWithinCohort: false' "$tmp/ps-off.yaml"
after-sh: tr -d ' \n' < "$tmp/ps-off.json" | grep -q '"name":"old-low","namespace":"ns".*"admission":{"clusterQueue":"cq-a"'
after-sh: tr -d ' \n' < "$tmp/ps-on.json" | grep -q '"name":"new-high","namespace":"ns".*"admission":{"clusterQueue":"cq-b"'
