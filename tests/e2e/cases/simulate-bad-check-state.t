# a check op with an unknown state is reported at the state
args: simulate -f examples/simulate/cluster.yaml --trace tests/fixtures/simulate/bad-check.jsonl
exit: 1
stderr-has: tests/fixtures/simulate/bad-check.jsonl:2:82: error: state must be Pending, Ready, Retry or Rejected
