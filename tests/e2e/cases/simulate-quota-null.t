# A null nominalQuota is pruned by the API server, so the required field
# is missing, as validate says (QF103); simulate says the same (it said
# "nominalQuota must be a quantity").
args: simulate -f tests/fixtures/simulate/quota-null.yaml
exit: 1
stderr-has: quota-null.yaml:18:23: error: missing required field nominalQuota [QF510]
