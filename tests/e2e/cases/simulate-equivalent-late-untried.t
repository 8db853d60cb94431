# simulate: a workload that arrives (5s) equivalent to one the ClusterQueue set aside after a NoFit (c, BestEffortFIFO) joins it untried, with no status at all (Kueue: cluster_queue.go PushOrUpdate, hashToBulkMoveReason), until the inadmissible workloads are requeued when a finishes (8s): then both are tried
setup: simulate -f tests/fixtures/simulate/equivalent-late.yaml --trace tests/fixtures/simulate/equivalent-late.jsonl --until 6s --dump-state "$tmp/at6.json"
args: simulate -f tests/fixtures/simulate/equivalent-late.yaml --trace tests/fixtures/simulate/equivalent-late.jsonl --until 9s --dump-state "$tmp/at9.json"
exit: 0
after-sh: test "$(tr -d ' \n' <"$tmp/at6.json" | grep -oF '"name":"d","namespace":"ns"' | wc -l)" = 1
after-sh: test "$(tr -d ' \n' <"$tmp/at6.json" | grep -oF '"active":true}}' | wc -l)" = 1
after-sh: test "$(tr -d ' \n' <"$tmp/at9.json" | grep -oF '"active":true}}' | wc -l)" = 0
