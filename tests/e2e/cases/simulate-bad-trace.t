# a bad trace line is reported at its line
args: simulate -f examples/simulate/cluster.yaml --trace tests/fixtures/simulate/bad-trace.jsonl
exit: 1
stderr-has: tests/fixtures/simulate/bad-trace.jsonl:2:20: error: op must be submit, finish, apply, delete or check
