# A pasted shell command above the YAML is skipped with a warning (QF705);
# the Workload's conditions give its wait (created 10:00, admitted 10:02)
setup: audit ingest --db "$tmp/audit-paste.db" tests/fixtures/audit/pasted-workload.txt
args: audit query --db "$tmp/audit-paste.db" "select workload, cluster_queue, wait_seconds from audit_waits"
--- stdout
workload	cluster_queue	wait_seconds
job-x-1a2b3	team-a	120.0
