# simulate: a Kueue Configuration whose integrations.frameworks leaves out batch/job makes Kueue manage no Job (it registers neither the Job reconciler nor its webhook): each Job is ignored with a warning at its line (QF511) and gets no Workload; the list was ignored and the Jobs were admitted as if Kueue managed them.
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nintegrations:\n  frameworks: [kubeflow.org/pytorchjob]\n' > "$tmp/cfg-nojob.yaml"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/cfg-nojob.yaml" --submit examples/simulate/jobs.yaml
exit: 0
stdout-has: team-a               0          0        0
stderr-has: jobs.yaml:10:9: warning: Job team-a/train: the Kueue Configuration's integrations.frameworks does not list batch/job, so Kueue does not manage Jobs
stdout-not: admitted at
