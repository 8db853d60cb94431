# simulate --dump-state: a workload no scheduling cycle has tried yet (shard-2, of shard-1's shape, set aside under BestEffortFIFO) has no status at all, as Kueue's Go types omit empty conditions and an empty status; it said "conditions": []. Reading the dump back keeps both shards waiting.
setup: simulate -f examples/simulate/cluster.yaml --submit examples/simulate/jobs.yaml --dump-state "$tmp/untried.json"
args: simulate -f "$tmp/untried.json"
exit: 0
after-sh: ! grep -q '"conditions": \[\]' "$tmp/untried.json"
after-sh: test "$(grep -c '"status": {' "$tmp/untried.json")" = "$(($(grep -c '"kind": "Workload"' "$tmp/untried.json") - 1 + $(grep -c '"kind": "ClusterQueue"' "$tmp/untried.json") + $(grep -c '"kind": "LocalQueue"' "$tmp/untried.json")))"
stdout-has: team-a               0          0        2
