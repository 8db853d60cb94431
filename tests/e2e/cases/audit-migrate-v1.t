# A database of schema version 1 is migrated by the next ingest (local_queues, the new audit_breaches) and derived again
setup-sh: cp tests/fixtures/audit/v1.db "$tmp/audit-v1.db"
setup: audit ingest --db "$tmp/audit-v1.db" tests/fixtures/audit/waiting/k8s-workloads.yaml tests/fixtures/audit/waiting/k8s-queues.yaml
args: audit query --db "$tmp/audit-v1.db" "select (select count(*) from quotas where cluster_queue = 'team-a'), (select user_version from pragma_user_version), workload, wait_seconds from audit_breaches"
exit: 0
--- stdout
(select count(*) from quotas where cluster_queue = 'team-a')	(select user_version from pragma_user_version)	workload	wait_seconds
1	12	team-x/w-wait	120.0
