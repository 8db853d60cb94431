# an evidence kind of another API group (another CRD named ClusterQueue,
# a Workload of core v1, an Event of Kueue's group) is rejected naming
# the apiVersion evidence has, never stored as Kueue's quota or workload
args: audit ingest --db "$tmp/aifg.db" tests/fixtures/audit/misnamed/foreign.json
exit: 1
stderr-has: misnamed/foreign.json:1:16: error: example.com/v1 ClusterQueue is not evidence: ClusterQueue evidence has apiVersion kueue.x-k8s.io/v1beta2 (or v1beta1) [QF702]
stderr-has: misnamed/foreign.json:2:16: error: v1 Workload is not evidence
stderr-has: misnamed/foreign.json:3:16: error: kueue.x-k8s.io/v1beta2 Event is not evidence: Event evidence has apiVersion v1, events.k8s.io/v1 or (an audit log's) audit.k8s.io/v1 [QF702]
stdout-has: ingested 4 records: 1 added, 3 rejected
