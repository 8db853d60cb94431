# simulate: a feature gate Kueue does not know (a typo of PriorityBoost) is said at its line with the gate it may mean, where it read as "not modelled"; the run goes on as Kueue's defaults.
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nfeatureGates:\n  PriorityBoots: true\n' > "$tmp/cfg-gates.yaml"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/cfg-gates.yaml" --submit examples/simulate/jobs.yaml
exit: 0
stderr-has: cfg-gates.yaml:4:18: warning: feature gate PriorityBoots is not one of Kueue's: simulate ignores it, and Kueue refuses to start with a gate it does not know (unrecognized feature gate); did you mean PriorityBoost?
stderr-not: feature gate PriorityBoots is not modelled
stdout-has: team-a/job-train-90800: admitted at 0ms
