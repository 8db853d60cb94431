# QF501: simulate accepts cohorts that form a cycle, as Kueue does, and
# warns at each cohort's parentName.
args: simulate -f tests/fixtures/lint/QF416-bad.yaml
exit: 0
stderr-has: tests/fixtures/lint/QF416-bad.yaml:7:15: warning: cohort a: the parentName links form a cycle
stderr-has: [QF501]
