# QF501: simulate refuses cohorts that form a cycle.
args: simulate -f tests/fixtures/lint/QF416-bad.yaml
exit: 1
stderr-has: [QF501]
