# The Configuration may also come wrapped in the kueue-manager-config
# ConfigMap (as Kueue installs it): the same 48-GPU cap holds.
setup: compile examples/tenants -o "$tmp/tenants"
args: simulate -f "$tmp/tenants/clusterqueue" "$tmp/tenants/cohort" "$tmp/tenants/localqueue" "$tmp/tenants/resourceflavor" "$tmp/tenants/workloadpriorityclass" tests/fixtures/simulate/kueue-manager-config.yaml --submit tests/fixtures/simulate/research-jobs.yaml
exit: 0
stdout-has: research/job-train-06-264b5: admitted at 0ms in ClusterQueue acme-research
stdout-has: research/job-train-07-c81ba: pending (WaitingForQuota):
stdout-not: job-train-10-b339a: admitted
