# QF224: validate warns about a Cohort that names itself as its parent
# (Kueue accepts it and treats it as a cycle).
args: validate tests/fixtures/validate/warn/cohort-self-parent.yaml
exit: 0
stderr-has: cohort-self-parent.yaml:8:15: warning: cohort "self" names itself as its parent
stderr-has: [QF224]
