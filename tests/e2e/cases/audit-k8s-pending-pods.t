# A pending Workload object is judged with its pods where its ClusterQueue covers pods (docs/audit.md D8): w-wait's 2 GPUs fit team-a's 4 beside w-run's 2, its 2 pods do not fit the 3 (w-run holds 2), so its 120s wait is no breach
setup: audit ingest --db "$tmp/audit-kpp.db" tests/fixtures/audit/pods/cluster.yaml tests/fixtures/audit/pods/workloads.yaml
args: audit query --db "$tmp/audit-kpp.db" "select (select count(*) from audit_breaches) as breaches, workload, cluster_queue, queued_at, admitted_at from audit_waits where workload = 'w-wait'"
exit: 0
--- stdout
breaches	workload	cluster_queue	queued_at	admitted_at
0	w-wait	team-a	2026-06-12T09:00:10.000Z	
