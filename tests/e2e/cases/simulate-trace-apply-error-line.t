# An error in a trace apply op's object names the op's own line (it named
# line 1 of the trace, whatever the line).
args: simulate -f tests/fixtures/simulate/kubectl-dump.yaml --trace tests/fixtures/simulate/trace-apply-bad.jsonl
exit: 1
--- stderr
tests/fixtures/simulate/trace-apply-bad.jsonl:2:152: error: parentName must be a string [QF510]
