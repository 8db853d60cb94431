# The catalogue comes from the rule table.
args: lint --list-rules
exit: 0
stdout-has: QF401  warning  cohort with a single member
stdout-has: QF412  error    nominal quota above the flavour's capacity
stdout-has: QF607  error    flavour name against the naming policy
