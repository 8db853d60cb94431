# A Workload deleted while it holds quota (the trace's delete of its Job at 50s; a Job deleted with kubectl in the controller) ends its borrowing there: the simulator writes a Deleted event, as Kueue writes none and only a watch sees it; team-c's borrowing of audit-scenario-borrowing ends at 50s instead of 100s
setup-sh: { cat tests/fixtures/audit/trace.jsonl; echo '{"at_ms": 50000, "op": "delete", "object": {"kind": "Job", "metadata": {"namespace": "team-c", "name": "c1"}}}'; } >"$tmp/trace.jsonl"
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace "$tmp/trace.jsonl" --events "$tmp/ev.jsonl"
setup-sh: grep -q '"reason":"Deleted","workload":"team-c/job-c1-29fde"' "$tmp/ev.jsonl"
setup: audit ingest --db "$tmp/a.db" "$tmp/ev.jsonl" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/a.db" "select * from audit_borrowing"
exit: 0
--- stdout
cluster	cluster_queue	cohort	flavor	resource	start_at	end_at	peak_amount	amount_seconds	workloads	lenders
default	team-a	alpha	h100	nvidia.com/gpu	1970-01-01T00:00:00.000Z	1970-01-01T00:00:10.000Z	2.0	20.0	team-a/job-a1-07ad7	team-b
default	team-c	beta	h100	nvidia.com/gpu	1970-01-01T00:00:00.000Z	1970-01-01T00:00:50.000Z	3.0	150.0	team-c/job-c1-29fde	team-d
default	team-a	alpha	h100	nvidia.com/gpu	1970-01-01T00:00:20.000Z	1970-01-01T00:02:00.000Z	2.0	200.0	team-a/job-a1-07ad7	team-b
