# A finish or delete of something that does not exist is an error at the
# name's line and column, never ignored; nothing is simulated.
args: simulate -f examples/simulate/cluster.yaml --trace tests/fixtures/simulate/trace-unknown.jsonl --events "$tmp/ev-unknown.jsonl"
exit: 1
stderr-has: tests/fixtures/simulate/trace-unknown.jsonl:2:43: error: no Workload or Job team-a/trian exists at 10ms
stderr-has: tests/fixtures/simulate/trace-unknown.jsonl:3:87: error: no ClusterQueue team-c exists at 20ms
after-sh: test ! -e "$tmp/ev-unknown.jsonl"
