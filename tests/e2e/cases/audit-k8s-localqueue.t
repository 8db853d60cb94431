# LocalQueues over time (D9): pending Workloads name only their LocalQueue; team-x/main points at team-x until it is re-created at 09:01 pointing at team-y, so w-late (09:02) waits in team-y
setup: audit ingest --db "$tmp/audit-lq.db" tests/fixtures/audit/waiting/k8s-workloads.yaml tests/fixtures/audit/waiting/k8s-queues.yaml
args: audit query --db "$tmp/audit-lq.db" "select * from audit_waits"
exit: 0
--- stdout
cluster	workload	namespace	cluster_queue	queued_at	admitted_at	wait_seconds
default	w-wait	team-x	team-x	2026-06-12T09:00:00.000Z		
default	w-big	team-x	team-x	2026-06-12T09:00:30.000Z		
default	w-late	team-x	team-y	2026-06-12T09:02:00.000Z		
