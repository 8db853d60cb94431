# a bad quantity is reported with file:line:col and nothing is simulated
args: simulate -f examples/simulate/cluster.yaml tests/fixtures/simulate/bad-quantity.yaml
exit: 1
stderr-has: tests/fixtures/simulate/bad-quantity.yaml:9:45: error: nominalQuota "4 cores" is not a quantity [QF510]
stderr-has:   hint: expected a Kubernetes quantity such as 10, 500m, 1.5 or 2Gi
