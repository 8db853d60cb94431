# Kueue's default managedJobsNamespaceSelector leaves kube-system and its
# own namespace (Configuration.namespace, kueue-system) alone: a Job
# without the queue-name label there gets no LocalQueue "default" and no
# Workload, even with manageJobsWithoutQueueName (Kueue: apis/config
# defaults.go; jobframework defaults.go ApplyDefaultLocalQueue).
setup-sh: sed 's/namespace: default/namespace: kueue-system/' tests/fixtures/simulate/unlabelled-job.yaml >"$tmp/ks-job.yaml" && sed 's/namespace: default}/namespace: kueue-system}/' tests/fixtures/simulate/default-lq.yaml >"$tmp/ks-lq.yaml"
args: simulate -f tests/controller/fixtures/setup.yaml -f tests/fixtures/simulate/manage-unlabelled-config.yaml -f "$tmp/ks-lq.yaml" --submit "$tmp/ks-job.yaml"
exit: 0
stdout-not: job-sample-job
stderr-has: warning: Job kueue-system/sample-job-gvsq9 has no kueue.x-k8s.io/queue-name label and its namespace is not selected by the Kueue Configuration's managedJobsNamespaceSelector
