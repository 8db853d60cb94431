# An op that is none of the five says what it was and the one meant
# (it said only "op must be submit, finish, apply, delete or check")
args: simulate -f examples/simulate/cluster.yaml --trace tests/fixtures/simulate/trace-op-typo.jsonl
exit: 1
--- stdout
--- stderr
tests/fixtures/simulate/trace-op-typo.jsonl:1:21: error: op must be submit, finish, apply, delete or check, not "finsh" [QF520]
  at op
  hint: did you mean finish?
tests/fixtures/simulate/trace-op-typo.jsonl:2:1: error: op must be submit, finish, apply, delete or check, and it is missing [QF520]
  at op
tests/fixtures/simulate/trace-op-typo.jsonl:3:21: error: op must be submit, finish, apply, delete or check, and it is not a string [QF520]
  at op
