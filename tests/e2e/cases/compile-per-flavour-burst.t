# For clusters with other ClusterQueues: no quotaflow.dev/gpus total and no
# transformation, and a warning with the numbers for every tenant whose
# burst can then be exceeded.
args: compile examples/tenants --stdout --per-flavour-burst
exit: 0
stderr-has: acme.yaml:62:12: warning: tenant "acme-research" can hold up to 88 GPUs on h100-ondemand, h100-spot instead of its burst of 48: with --per-flavour-burst Kueue caps each flavour separately [QF323]
stderr-not: QF315
stdout-not: quotaflow-total
stdout-not: quotaflow.dev/gpus
