# --until past 10^15 ms is refused: times near INT64_MAX would overflow
# when added to the snapshot's time.
args: simulate -f examples/simulate/cluster.yaml --until 9000000000000000ms
exit: 2
stderr-has: --until is at most 10^15 ms
