# A Kubernetes preemption: the preemptor's UID resolves to its Workload; the
# reason comes from Kueue's "due to reclamation within the cohort"
setup: audit ingest --db "$tmp/audit-k8sp.db" tests/fixtures/audit/k8s-events.json
args: audit query --db "$tmp/audit-k8sp.db" "select * from audit_preemptions"
--- stdout
cluster	workload	preemptor	cluster_queue	reason	at
default	team-a/w-low	team-b/w-high	team-a	InCohortReclamation	2026-06-12T10:05:00.123Z
