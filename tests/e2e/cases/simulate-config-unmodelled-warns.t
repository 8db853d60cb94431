# simulate: parts of a valid Kueue Configuration that simulate does not model are said at their line (QF511) rather than silently ignored: a feature gate other than those it models; waitForPodsReady is modelled now and not warned about; the run goes on.
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nwaitForPodsReady:\n  enable: true\n  timeout: 5m\nfeatureGates: {TopologyAwareScheduling: true, PriorityBoost: false}\n' > "$tmp/cfg-unmodelled.yaml"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/cfg-unmodelled.yaml" --submit examples/simulate/jobs.yaml
exit: 0
stderr-not: waitForPodsReady
stderr-has: cfg-unmodelled.yaml:6:41: warning: feature gate TopologyAwareScheduling is not modelled
stderr-not: feature gate PriorityBoost
stdout-has: team-a/job-train-90800: admitted at 0ms
