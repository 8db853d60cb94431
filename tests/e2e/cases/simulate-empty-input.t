# An -f input without any object (an empty file, as a failed `kubectl get
# ... >cluster.yaml` leaves) is an error, as for validate and lint: it
# simulated an empty cluster (exit 0), and on standard input said "no
# *.yaml, *.yml or *.json files found [QF307]", a compile message.
args: simulate -f -
stdin: /dev/null
exit: 1
--- stderr
quotaflow: error: no objects to simulate in -f: 1 file read [QF004]
