# The compiled queues on a cluster whose Kueue Configuration lacks the
# transformation: Kueue's limits are per flavour, so all ten 8-GPU jobs
# (80 GPUs) start, above the burst, and simulate says why (QF521).
setup: compile examples/tenants -o "$tmp/tenants"
args: simulate -f "$tmp/tenants/clusterqueue" "$tmp/tenants/cohort" "$tmp/tenants/localqueue" "$tmp/tenants/resourceflavor" "$tmp/tenants/workloadpriorityclass" tests/fixtures/simulate/kueue-config-none.yaml --submit tests/fixtures/simulate/research-jobs.yaml
exit: 0
stdout-has: research/job-train-07-c81ba: admitted at 0ms in ClusterQueue acme-research
stdout-has: research/job-train-10-b339a: admitted at 0ms in ClusterQueue acme-research
stdout-not: pending
stderr-has: clusterqueue/acme-inference.yaml:2:1: warning: ClusterQueue "acme-inference" (and others) covers quotaflow.dev/gpus, but no resources.transformations of the Kueue Configuration outputs it
stderr-has: [QF521]
