# A workload whose check turns Ready at 1000ms is admitted then, not when
# it reserved quota (it said "admitted at 0ms"), counted from virtual time
# 0 (the dated Workload's creation), not from the Unix epoch.
args: simulate -f tests/fixtures/simulate/v1beta1-checks.yaml -f tests/fixtures/simulate/dated-workload.yaml --submit tests/fixtures/simulate/submit.yaml --trace tests/fixtures/simulate/trace-check-ready.jsonl
exit: 0
stdout-has: team-a/first: admitted at 1000ms in ClusterQueue checked on flavour default
