# With no mode, the stream goes to stdout (as kustomize build).
args: compile examples/tenants
exit: 0
stdout-has: kind: ClusterQueue
stdout-not: files written
