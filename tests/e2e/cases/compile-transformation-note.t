# The notes state what the Kueue Configuration changes for the whole
# cluster, and come after the warnings.
args: compile examples/tenants --stdout
exit: 0
stderr-has: [QF315]
stderr-has: hint: the transformation applies to every workload in the cluster: a ClusterQueue not managed by quotaflow that admits nvidia.com/gpu then needs quota for quotaflow.dev/gpus too, or its GPU jobs stop being admitted; for a cluster with such queues compile with --per-flavour-burst
stderr-has: excludeResourcePrefixes [ephemeral-storage, hugepages-] (kueue-configuration.yaml)
stderr-has: stops enforcing it
