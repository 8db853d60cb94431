# A LocalQueue and a ResourceFlavor shown DELETED by a watch without deletionTimestamp (docs/audit.md D10) are deleted 1 ms after the latest time they carry, a policy change each; w2, created after its LocalQueue team-c/main went, is in no ClusterQueue
setup: audit ingest --db "$tmp/audit-wdq.db" tests/fixtures/audit/cluster.yaml tests/fixtures/audit/watch-deleted.json
args: audit query --db "$tmp/audit-wdq.db" "select at, verb, kind, name from audit_policy_changes where verb = 'delete' union all select queued_at, 'wait', coalesce(cluster_queue, '-'), namespace || '/' || workload from audit_waits where workload = 'w2'"
exit: 0
--- stdout
at	verb	kind	name
2026-06-12T08:00:00.001Z	delete	ResourceFlavor	a100
2026-06-12T09:01:00.001Z	delete	LocalQueue	team-c/main
2026-06-12T09:01:40.000Z	wait	-	team-c/w2
