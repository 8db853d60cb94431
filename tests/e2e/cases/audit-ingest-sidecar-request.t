# What a waiting Workload requests (D8's breach judgement) is what
# Kubernetes' PodRequests gives, as simulate counts it: the native
# sidecar keeps running beside the containers and the init container
# after it, pod-level memory replaces the containers', the overhead is
# added; before, the sidecar was taken for an init container that ends
# first and pod-level resources and overhead were ignored (7000m cpu,
# 2Gi memory for the two pods)
setup: audit ingest --db "$tmp/aisr.db" tests/fixtures/audit/pods/sidecar-workload.yaml
args: audit query --db "$tmp/aisr.db" "select reason, detail from events"
exit: 0
--- stdout
reason	detail
Created	{"request":{"cpu":"11500m","memory":"4294967296000m","pods":"2000m"}}
