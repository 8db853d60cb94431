# kubectl get events -o json (core/v1 legacy and events.k8s.io/v1 items): waits
# from Pending/QuotaReserved/Admitted, the requeue at the preemption, the
# wait in the QuotaReserved message when the entry was not captured (w-high)
setup: audit ingest --db "$tmp/audit-k8s.db" tests/fixtures/audit/k8s-events.json tests/fixtures/audit/k8s-events-v1.json
args: audit query --db "$tmp/audit-k8s.db" "select * from audit_waits"
--- stdout
cluster	workload	namespace	cluster_queue	queued_at	admitted_at	wait_seconds
default	w-low	team-a	team-a	2026-06-12T10:00:00.000Z	2026-06-12T10:00:30.000Z	30.0
default	w-high	team-b	team-b	2026-06-12T10:04:59.500Z	2026-06-12T10:05:01.500Z	2.0
default	w-low	team-a	team-a	2026-06-12T10:05:00.123Z	2026-06-12T10:15:00.500Z	600.377
