# The Kueue Configuration holds for every Job of the input, whatever comes
# first in the files (Kueue reads it at start): here the unlabelled Job
# precedes the ConfigMap that turns manageJobsWithoutQueueName on, and
# still gets a Workload in no queue.
setup-sh: { cat tests/fixtures/simulate/unlabelled-job.yaml; echo ---; cat tests/fixtures/simulate/manage-unlabelled-config.yaml; } >"$tmp/job-then-config.yaml"
args: simulate -f tests/controller/fixtures/setup.yaml -f "$tmp/job-then-config.yaml" --dump-state "$tmp/jtc.json"
exit: 0
stderr-not: QF511
after-sh: grep -q "LocalQueue  doesn't exist" "$tmp/jtc.json"
