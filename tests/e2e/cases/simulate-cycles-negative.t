# --cycles -1 is a usage error, as every count below 0 is; -1 was taken
# for "no --cycles" (the option's unset value) and the whole trace ran
args: simulate -f examples/simulate/cluster.yaml --trace examples/simulate/trace.jsonl --cycles -1
exit: 2
stderr-has: quotaflow: error: simulate: --cycles takes a count >= 0
--- stdout
