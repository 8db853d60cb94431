# Not a breach (D8): e1 (4 GPUs) is preempted by e2 (4 GPUs, higher priority) in team-e (nominal 4) and waits 90s, but its queue's usage once its arrival instant is over (4, e2) plus its request (4) exceeds 4: the floor was honoured; an empty result still prints the header
setup: simulate -f tests/fixtures/audit/waiting/cluster.yaml --trace tests/fixtures/audit/waiting/trace-full.jsonl --until 100s --events "$tmp/audit-of.jsonl"
setup: audit ingest --db "$tmp/audit-of.db" "$tmp/audit-of.jsonl" tests/fixtures/audit/waiting/cluster.yaml
args: audit query --db "$tmp/audit-of.db" "select * from audit_breaches"
exit: 0
--- stdout
cluster	workload	cluster_queue	queued_at	admitted_at	wait_seconds	usage_at_arrival	nominal
