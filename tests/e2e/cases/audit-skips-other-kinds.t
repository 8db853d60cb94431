# Namespaces and WorkloadPriorityClasses carry no evidence: a warning each (QF706)
args: audit ingest --db "$tmp/audit-kinds.db" examples/simulate/cluster.yaml
exit: 0
stderr-has: Namespace carries no audit evidence; skipped [QF706]
