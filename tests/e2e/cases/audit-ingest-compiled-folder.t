# ingest of the folder `compile -o` writes (README: "files or folders"):
# its kustomization.yaml and the kinds that carry no evidence are skipped
# with a warning, the ClusterQueues' quotas are stored, nothing is rejected
setup-sh: "$QF" compile examples/tenants -o "$tmp/aicf/deploy" >/dev/null 2>&1
args: audit ingest --db "$tmp/aicf/a.db" "$tmp/aicf/deploy"
exit: 0
stderr-has: kustomization.yaml:2:1: warning: Kustomization carries no audit evidence; skipped [QF706]
after-sh: test "$("$QF" audit query --db "$tmp/aicf/a.db" "select count(*) from rejected" | tail -1)" = 0 && test "$("$QF" audit query --db "$tmp/aicf/a.db" "select count(distinct cluster_queue) from quotas" | tail -1)" = 8
