# On a cluster whose Kueue Configuration excludes nothing, the same queues
# admit no such Job: this is what excludeResourcePrefixes fixes
# (simulate-typical-job-plain-pool.t).  Kueue names the first uncovered
# resource in its walk order (FNV-1a hash of the name): ephemeral-storage,
# before memory and cpu.
setup: compile tests/fixtures/compile/plain-pool -o "$tmp/plain"
args: simulate -f "$tmp/plain/clusterqueue" "$tmp/plain/cohort" "$tmp/plain/localqueue" "$tmp/plain/resourceflavor" tests/fixtures/simulate/kueue-config-none.yaml --submit tests/fixtures/simulate/typical-gpu-job.yaml
exit: 0
stdout-has: vision/job-train-1e76f: pending (NoMatchingFlavor)
stdout-has: resource ephemeral-storage unavailable in ClusterQueue
