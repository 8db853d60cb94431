# simulate says an unquoted 1e400 is a number past the range (YAML keeps
# it as text), with the range expected; it said only "must be an integer"
setup-sh: sed 's/count: 1$/count: 1e400/; s/+24:00/Z/' tests/fixtures/simulate/offset-out-of-range.yaml >"$tmp/big-sim.yaml"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/big-sim.yaml"
exit: 1
stderr-has: big-sim.yaml:11:12: error: count must be an integer from 0 to 2147483647, not 1e400, a number past the 64-bit range [QF510]
