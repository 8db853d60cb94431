# What-if from the source of truth: the live policy (here the compiled
# output without its Configuration, so burst is not capped) replaced by
# the specs given to --apply, whose derived Configuration then applies.
setup: compile examples/tenants -o "$tmp/live"
args: simulate -f "$tmp/live/clusterqueue" "$tmp/live/cohort" "$tmp/live/localqueue" "$tmp/live/resourceflavor" "$tmp/live/workloadpriorityclass" --apply examples/tenants --submit tests/fixtures/simulate/research-jobs.yaml
exit: 0
stdout-has: research/job-train-06-264b5: admitted at 0ms in ClusterQueue acme-research
stdout-not: job-train-07-c81ba: admitted
