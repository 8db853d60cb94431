# QF510: an object simulate cannot load.
args: simulate -f examples/simulate/cluster.yaml tests/fixtures/simulate/bad-quantity.yaml
exit: 1
stderr-has: [QF510]
