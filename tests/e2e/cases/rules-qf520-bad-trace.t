# QF520: a bad trace line.
args: simulate -f examples/simulate/cluster.yaml --trace tests/fixtures/simulate/bad-trace.jsonl
exit: 1
stderr-has: [QF520]
