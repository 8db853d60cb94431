# A Job without the kueue.x-k8s.io/queue-name label goes to the LocalQueue
# "default" of its namespace, as Kueue's Job webhook labels it
# (jobframework ApplyDefaultLocalQueue).
args: simulate -f tests/controller/fixtures/setup.yaml -f tests/fixtures/simulate/default-lq.yaml --submit tests/fixtures/simulate/unlabelled-job.yaml
exit: 0
stdout-has: default/job-sample-job-gvsq9-3c443: admitted at 0ms in ClusterQueue cluster-queue
--- stderr
