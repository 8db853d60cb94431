# A dump of an empty cluster (an empty List) is a snapshot, not an empty
# input: what-if on a fresh cluster works (only an input without any
# document is QF004).
args: simulate -f tests/fixtures/simulate/empty-list.json --apply examples/tenants
exit: 0
stdout-has: llm-pretrain
stderr-not: QF004
