# A Kueue quota written as a YAML number with a fraction is refused by the
# API server (int-or-string), as validate says (QF104): simulate says so
# too (it simulated 2.5 CPUs of a queue that could not exist).
args: simulate -f tests/fixtures/simulate/quota-fraction.yaml
exit: 1
--- stderr
tests/fixtures/simulate/quota-fraction.yaml:19:23: error: nominalQuota 2.5: a number with a fraction, which the API server refuses here; quote it ("2.5") or use a suffix (m) [QF510]
