# A quantity simulate cannot read names its value and what is expected
# (it said "invalid quantity for nominalQuota", neither)
args: simulate -f examples/simulate/cluster.yaml -f tests/fixtures/simulate/bad-quantities.yaml
exit: 1
--- stdout
--- stderr
tests/fixtures/simulate/bad-quantities.yaml:13:35: error: nominalQuota "123456789012345678901234" is too large [QF510]
  hint: expected a quantity that fits in 64 bits
tests/fixtures/simulate/bad-quantities.yaml:23:37: error: cpu "2 cores" is not a quantity [QF510]
  hint: expected a Kubernetes quantity such as 10, 500m, 1.5 or 2Gi
