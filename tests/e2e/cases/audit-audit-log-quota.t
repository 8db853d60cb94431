# The audit log's responseObject gives the quota in force from stageTimestamp
setup: audit ingest --db "$tmp/audit-alogq.db" tests/fixtures/audit/audit-log.jsonl
args: audit query --db "$tmp/audit-alogq.db" "select cluster_queue, cohort, nominal_milli, valid_from_ms, revision from quotas"
--- stdout
cluster_queue	cohort	nominal_milli	valid_from_ms	revision
team-a	shared	8000	1781254800000	abc1234
