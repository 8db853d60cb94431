# An object with metadata.generateName and no name (Kueue's own sample Job,
# made with `kubectl create -f`) gets a name as the API server would give
# it, the prefix and 5 characters, here the same on every run (it was
# "missing required field name").
args: simulate -f tests/controller/fixtures/setup.yaml --submit tests/fixtures/simulate/generate-name-job.yaml
exit: 0
stdout-has: default/job-sample-job-gvsq9-3c443: admitted at 0ms in ClusterQueue cluster-queue
--- stderr
