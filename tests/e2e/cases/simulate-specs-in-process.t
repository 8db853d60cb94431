# Pool/Tenant specs given to simulate are compiled in process, with the
# Kueue Configuration the compiler derives: the same answer as compiling to
# a directory first (simulate-compiled-burst-cap.t): acme-research stops at
# its 48-GPU burst across both flavours.
args: simulate -f examples/tenants --submit tests/fixtures/simulate/research-jobs.yaml
exit: 0
stdout-has: research/job-train-01-cbc9b: admitted at 0ms in ClusterQueue acme-research
stdout-has: research/job-train-06-264b5: admitted at 0ms in ClusterQueue acme-research
stdout-has: insufficient unused quota for quotaflow.dev/gpus in flavor quotaflow-total, 8 more needed
stdout-not: job-train-07-c81ba: admitted
stdout-not: job-train-10-b339a: admitted
stderr-not: ignoring object of kind
