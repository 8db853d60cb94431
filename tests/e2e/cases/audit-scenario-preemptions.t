# Preemption by construction: b1 reclaims team-b's lent quota from a1 at 10s
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/audit-sc.jsonl"
setup: audit ingest --db "$tmp/audit-preemptions.db" "$tmp/audit-sc.jsonl" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/audit-preemptions.db" "select * from audit_preemptions"
exit: 0
--- stdout
cluster	workload	preemptor	cluster_queue	reason	at
default	team-a/job-a1-07ad7	team-b/job-b1-1b3f0	team-a	InCohortReclamation	1970-01-01T00:00:10.000Z
