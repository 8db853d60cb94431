# A pending Workload judged on its podSets' request (D8): w-wait requests 2 x max(init 1, containers 1) = 2 GPUs, fitted team-x's 4 and waited 120s to the end of the evidence (w-late's creation); w-big (6 GPUs) never fitted; the LocalQueues come second, so the Workloads get their ClusterQueue when the derivation reruns
setup: audit ingest --db "$tmp/audit-pb.db" tests/fixtures/audit/waiting/k8s-workloads.yaml
setup: audit ingest --db "$tmp/audit-pb.db" tests/fixtures/audit/waiting/k8s-queues.yaml
args: audit query --db "$tmp/audit-pb.db" "select * from audit_breaches"
exit: 0
--- stdout
cluster	workload	cluster_queue	queued_at	admitted_at	wait_seconds	usage_at_arrival	nominal
default	team-x/w-wait	team-x	2026-06-12T09:00:00.000Z		120.0	0.0	4.0
