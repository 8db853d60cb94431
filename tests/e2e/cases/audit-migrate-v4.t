# A database of schema version 4 (written by the previous quotaflow: the simulator's scenario and its cluster) is migrated by the next ingest to version 12 (the derivation's checkpoint tables, queue objects, finished workloads in batches) and derived again: the same borrowing rows as a new database (audit-scenario-borrowing)
setup-sh: cp tests/fixtures/audit/v4.db "$tmp/audit-v4.db"
setup: audit ingest --db "$tmp/audit-v4.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/audit-v4.db" "select (select user_version from pragma_user_version) v, (select count(*) from d_ckpt) ck, * from audit_borrowing"
exit: 0
--- stdout
v	ck	cluster	cluster_queue	cohort	flavor	resource	start_at	end_at	peak_amount	amount_seconds	workloads	lenders
12	1	default	team-a	alpha	h100	nvidia.com/gpu	1970-01-01T00:00:00.000Z	1970-01-01T00:00:10.000Z	2.0	20.0	team-a/job-a1-07ad7	team-b
12	1	default	team-c	beta	h100	nvidia.com/gpu	1970-01-01T00:00:00.000Z	1970-01-01T00:01:40.000Z	3.0	300.0	team-c/job-c1-29fde	team-d
12	1	default	team-a	alpha	h100	nvidia.com/gpu	1970-01-01T00:00:20.000Z	1970-01-01T00:02:00.000Z	2.0	200.0	team-a/job-a1-07ad7	team-b
