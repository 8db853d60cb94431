# Errors first, then warnings, then notes (the note's line comes first in
# the file, yet it prints last).
args: compile tests/fixtures/spec/notes-after-errors.yaml --stdout
exit: 1
--- stdout
--- stderr
tests/fixtures/spec/notes-after-errors.yaml:15:31: error: burst 2 is below committed 4; burst is the ceiling and includes the committed GPUs [QF309]
  at spec.gpus.burst
tests/fixtures/spec/notes-after-errors.yaml:2:1: note: the compiled queues cover no cpu, ephemeral-storage, hugepages-, memory, which pods request; the cluster's Kueue Configuration needs resources.excludeResourcePrefixes [cpu, ephemeral-storage, hugepages-, memory] (kueue-configuration.yaml), without which Kueue admits no Job that requests them [QF326]
  hint: the exclusion applies to every workload in the cluster: a ClusterQueue not managed by quotaflow that sets quota on these resources stops enforcing it; to keep one counted, give it a quota per GPU in the pool's resourcesPerGpu instead
