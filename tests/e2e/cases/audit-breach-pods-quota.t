# A ClusterQueue that covers pods counts them (docs/audit.md D8): a2 (2 pods of 1 GPU) fits team-a's 4 GPUs but not its 3 pods (2 + 2 > 3), so its 139s wait to the end of the evidence is not a breach; simulate's pending events carry pods in their request, as Kueue's flavor assigner adds them
setup: simulate -f tests/fixtures/audit/pods/cluster.yaml --trace tests/fixtures/audit/pods/trace.jsonl --until 150s --events "$tmp/audit-pods.jsonl"
setup: audit ingest --db "$tmp/audit-pods.db" tests/fixtures/audit/pods/cluster.yaml "$tmp/audit-pods.jsonl"
args: audit query --db "$tmp/audit-pods.db" "select (select count(*) from audit_breaches) as breaches, (select count(*) from audit_waits where admitted_at is null) as waiting, detail from events where reason = 'WaitingForQuota'"
exit: 0
--- stdout
breaches	waiting	detail
0	1	{"request":{"main":{"nvidia.com/gpu":"2","pods":"2"}}}
