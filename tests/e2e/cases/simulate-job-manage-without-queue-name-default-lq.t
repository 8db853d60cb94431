# manageJobsWithoutQueueName does not stop the LocalQueue "default" from
# taking a Job without the queue-name label: Kueue's webhook labels it
# first (jobframework defaults.go ApplyDefaultLocalQueue), so it runs.
args: simulate -f tests/controller/fixtures/setup.yaml -f tests/fixtures/simulate/manage-unlabelled-config.yaml -f tests/fixtures/simulate/default-lq.yaml --submit tests/fixtures/simulate/unlabelled-job.yaml
exit: 0
stdout-has: default/job-sample-job-gvsq9-3c443: admitted at 0ms in ClusterQueue cluster-queue
stderr-not: QF511
