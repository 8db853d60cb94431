# an empty FILE or DIR (an unset shell variable: --events "$OUT") is a
# usage error naming the option, not a failure on an empty file name later
args: simulate -f tests/fixtures/audit/cluster.yaml --cycles 1 --events ""
exit: 2
stderr-has: quotaflow: error: --events needs a FILE, not an empty string
