# With manageJobsWithoutQueueName in the Kueue Configuration (read from the
# ConfigMap kueue-manager-config), a Job without the queue-name label in a
# namespace without a LocalQueue "default" is Kueue's: suspended, with a
# Workload in no queue that waits for ever (Kueue's reason and message),
# not ignored with QF511.  Kueue: test/integration/singlecluster/
# controller/jobs/job/job_controller_test.go "Should manage a job without
# a queue-name submitted to managed namespace".
args: simulate -f tests/controller/fixtures/setup.yaml -f tests/fixtures/simulate/manage-unlabelled-config.yaml --submit tests/fixtures/simulate/unlabelled-job.yaml
exit: 0
stdout-has: default/job-sample-job-gvsq9-3c443: pending (Misconfigured): LocalQueue  doesn't exist
stderr-not: QF511
