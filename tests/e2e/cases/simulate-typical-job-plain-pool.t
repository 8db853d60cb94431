# A pool without resourcesPerGpu covers only GPUs; the Kueue Configuration
# compile writes (excludeResourcePrefixes) lets a typical GPU Job that also
# requests cpu, memory and ephemeral-storage be admitted.
setup: compile tests/fixtures/compile/plain-pool -o "$tmp/plain"
args: simulate -f "$tmp/plain" --submit tests/fixtures/simulate/typical-gpu-job.yaml
exit: 0
stdout-has: vision/job-train-1e76f: admitted at 0ms in ClusterQueue vision
