# A Job without the kueue.x-k8s.io/queue-name label, in a namespace with no
# LocalQueue "default", is not Kueue's (manageJobsWithoutQueueName is off):
# simulate ignores it with a warning (it waited forever, "LocalQueue
# doesn't exist", a queue with an empty name).
args: simulate -f tests/controller/fixtures/setup.yaml --submit tests/fixtures/simulate/unlabelled-job.yaml
exit: 0
stdout-not: LocalQueue  doesn't exist
stderr-has: unlabelled-job.yaml:6:3: warning: Job default/sample-job-gvsq9 has no kueue.x-k8s.io/queue-name label and its namespace no LocalQueue "default": Kueue does not manage it (no Workload; it runs outside any quota), so simulate ignores it [QF511]
