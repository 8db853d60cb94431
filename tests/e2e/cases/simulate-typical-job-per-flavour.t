# --per-flavour-burst writes no transformation, only the exclusions: the
# typical GPU Job is admitted all the same.
setup: compile tests/fixtures/compile/plain-pool --per-flavour-burst -o "$tmp/plain"
args: simulate -f "$tmp/plain" --submit tests/fixtures/simulate/typical-gpu-job.yaml
exit: 0
stdout-has: vision/job-train-1e76f: admitted at 0ms in ClusterQueue vision
