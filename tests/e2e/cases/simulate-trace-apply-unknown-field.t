# A trace apply op's object is checked like -f's: an unknown field is a
# warning (QF512) at its line and column of the trace, said once (not
# again when the op runs).
args: simulate -f tests/fixtures/simulate/kubectl-dump.yaml --trace tests/fixtures/simulate/trace-unknown-field.jsonl
exit: 0
--- stderr
tests/fixtures/simulate/trace-unknown-field.jsonl:2:148: warning: unknown field "parent" ignored: the API server drops it (and kubectl apply, validating strictly by default, refuses the object) [QF512]
  at spec.parent
  hint: expected one of: fairSharing, parentName, resourceGroups
