# The same compiled queues without the Kueue Configuration: Kueue's limits
# are per flavour, so all ten 8-GPU jobs (80 GPUs) start, above the burst.
setup: compile examples/tenants -o "$tmp/tenants"
args: simulate -f "$tmp/tenants/clusterqueue" "$tmp/tenants/cohort" "$tmp/tenants/localqueue" "$tmp/tenants/resourceflavor" "$tmp/tenants/workloadpriorityclass" --submit tests/fixtures/simulate/research-jobs.yaml
exit: 0
stdout-has: research/job-train-07-c81ba: admitted at 0ms in ClusterQueue acme-research
stdout-has: research/job-train-10-b339a: admitted at 0ms in ClusterQueue acme-research
stdout-not: pending
