# An object with an apiVersion and no kind is an error (kubectl and the API
# server refuse it), not a warning and a simulation without it
args: simulate -f tests/fixtures/simulate/no-kind.yaml --submit examples/simulate/jobs.yaml
exit: 1
--- stdout
--- stderr
tests/fixtures/simulate/no-kind.yaml:8:13: error: an object of apiVersion kueue.x-k8s.io/v1beta2 without a kind: kubectl and the API server refuse it [QF510]
  at kind
  hint: add its kind: ResourceFlavor, Cohort, ClusterQueue, LocalQueue, WorkloadPriorityClass, AdmissionCheck or Workload
