# Counts, requests and priorities are range-checked as Kubernetes does,
# with file:line:col; nothing is narrowed to 32 bits or clamped.
args: simulate -f examples/simulate/cluster.yaml tests/fixtures/simulate/wpc-out-of-range.yaml --submit tests/fixtures/simulate/out-of-range.yaml
exit: 1
stderr-has: tests/fixtures/simulate/out-of-range.yaml:7:16: error: parallelism must be an integer from 0 to 2147483647, not 4294967297
stderr-has: tests/fixtures/simulate/out-of-range.yaml:17:16: error: parallelism must be an integer from 0 to 2147483647, not -1
stderr-has: tests/fixtures/simulate/out-of-range.yaml:30:47: error: request of cpu must be greater than or equal to 0
stderr-has: tests/fixtures/simulate/out-of-range.yaml:37:13: error: priority must be an integer from -2147483648 to 2147483647, not 4294967297
stderr-has: tests/fixtures/simulate/wpc-out-of-range.yaml:4:8: error: value must be an integer from -2147483648 to 2147483647, not 4294967297
