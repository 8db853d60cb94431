# simulate: a negative objectRetentionPolicies.workloads.afterFinished is refused at its value, as Kueue's Configuration validation refuses it
args: simulate -f tests/fixtures/simulate/retention-negative.yaml --cycles 1
exit: 1
stderr-has: tests/fixtures/simulate/retention-negative.yaml:5:20: error: afterFinished must be a duration such as 30s, 10m or 1h30m
