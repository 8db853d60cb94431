# The example pool covers cpu and memory per GPU; ephemeral-storage is
# excluded, so a typical GPU Job is admitted there too.
setup: compile examples/tenants -o "$tmp/tenants"
args: simulate -f "$tmp/tenants" --submit tests/fixtures/simulate/typical-research-job.yaml
exit: 0
stdout-has: research/job-train-
stdout-has: admitted at 0ms in ClusterQueue acme-research
stdout-not: pending
