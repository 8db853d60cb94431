# the --submit report prints on standard output: --events - there too
# would interleave prose with JSON lines, so it is refused
args: simulate -f examples/simulate/cluster.yaml --submit examples/simulate/jobs.yaml --events -
exit: 2
stderr-has: -: error: names standard output, where the --submit report goes; the two would be mixed [QF002]
--- stdout
