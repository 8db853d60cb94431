# simulate -f of the specs themselves compiles them in process, with the
# same Configuration: the typical GPU Job is admitted.
args: simulate -f tests/fixtures/compile/plain-pool --submit tests/fixtures/simulate/typical-gpu-job.yaml
exit: 0
stdout-has: vision/job-train-1e76f: admitted at 0ms in ClusterQueue vision
