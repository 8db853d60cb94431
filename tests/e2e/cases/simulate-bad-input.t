# a bad quantity is reported with file:line:col and nothing is simulated
args: simulate -f examples/simulate/cluster.yaml tests/fixtures/simulate/bad-quantity.yaml
exit: 1
stderr-has: tests/fixtures/simulate/bad-quantity.yaml:9:45: error: invalid quantity for nominalQuota
