# Kueue v0.15+ (ManagedJobsNamespaceSelectorAlwaysRespected; v0.19: always)
# manages no Job, queue name or not, in a namespace its Configuration's
# managedJobsNamespaceSelector does not match (jobframework reconciler.go):
# team-b's and kube-system's Jobs get no Workload; Kueue's Job webhook
# still suspends team-b's, which never runs.
args: simulate -f tests/controller/fixtures/setup.yaml -f tests/fixtures/simulate/opt-in-namespaces.yaml --submit tests/fixtures/simulate/opt-in-jobs.yaml
exit: 0
stdout-has: team-a/job-job1-ac9e3: admitted at 0ms in ClusterQueue cluster-queue
stdout-not: team-b/job-job1
stdout-not: kube-system/job-job1
stderr-has: opt-in-jobs.yaml:26:32: warning: Job team-b/job1 has a queue name but its namespace is not selected by the Kueue Configuration's managedJobsNamespaceSelector: Kueue does not manage it (no Workload), so simulate ignores it; Kueue's Job webhook still suspends it, so it never runs [QF511]
stderr-has: opt-in-jobs.yaml:44:32: warning: Job kube-system/job1 has a queue name but its namespace is not selected by the Kueue Configuration's managedJobsNamespaceSelector: Kueue does not manage it (no Workload), so simulate ignores it; it runs outside any quota [QF511]
