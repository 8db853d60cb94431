# The compiled policy with its Kueue Configuration (kueue-configuration.yaml
# in the -o output) caps acme-research at its 48-GPU burst across both
# flavours: 6 of ten 8-GPU jobs start, the 7th waits on quotaflow.dev/gpus.
setup: compile examples/tenants -o "$tmp/tenants"
args: simulate -f "$tmp/tenants" --submit tests/fixtures/simulate/research-jobs.yaml
exit: 0
stdout-has: research/job-train-01-cbc9b: admitted at 0ms in ClusterQueue acme-research
stdout-has: research/job-train-06-264b5: admitted at 0ms in ClusterQueue acme-research
stdout-has: research/job-train-07-c81ba: pending (WaitingForQuota):
stdout-has: insufficient unused quota for quotaflow.dev/gpus in flavor quotaflow-total, 8 more needed
stdout-not: job-train-07-c81ba: admitted
stdout-not: job-train-08-415c3: admitted
stdout-not: job-train-09-73257: admitted
stdout-not: job-train-10-b339a: admitted
stdout-has: research/job-train-10-b339a: pending: queued, not evaluated yet
# compile's own kustomization.yaml is a build file, not worth a warning
stderr-not: QF511
stderr-not: Kustomization
