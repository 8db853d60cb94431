# A Job's kueue.x-k8s.io/max-exec-time-seconds label is its Workload's
# spec.maximumExecutionTimeSeconds (Kueue: jobframework
# MaximumExecutionTimeSecondsForObject): capped is deactivated after 2 s
# and next gets its quota then.
args: simulate -f tests/controller/fixtures/setup.yaml --submit tests/fixtures/simulate/max-exec-jobs.yaml --dump-state "$tmp/state.json"
exit: 0
stdout-has: default/job-capped-e8a95: pending (Deactivated): The workload is deactivated (admitted at 0ms before, then evicted)
stdout-has: default/job-next-ea8a3: admitted at 2000ms in ClusterQueue cluster-queue
after-sh: grep -q '"maximumExecutionTimeSeconds": *2' "$tmp/state.json"
--- stderr
