#!/bin/sh
# Security and observability: a Bearer token (401 without it, except
# /healthz and /readyz), HTTPS with a certificate made here, the body size
# limit, a namespace its ClusterQueue does not select, preemption, and
# /metrics passing promtool (tests/controller/lib.sh).
suite=security
. "$(dirname "$0")/lib.sh"

printf 's3cret\n' >"$tmp/token"
make_cert
start tls --db "$tmp/s.db" --token-file "$tmp/token" \
	--tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem" || exit 1
S="--server https://127.0.0.1:$PORT --certificate-authority $tmp/cert.pem"
# kubectl without credentials would prompt: basic auth stands for "no
# Bearer token" here
out=$(k --username u --password p get --raw /api 2>&1)
expect_has "no token" "$out" "Unauthorized"
out=$(k --token wrong get --raw /api 2>&1)
expect_has "wrong token" "$out" "Unauthorized"
expect_eq "token" "$(k --token s3cret get ns -o name)" "namespace/default"
expect_eq "healthz open" "$(k --username u --password p get --raw /healthz 2>&1)" "ok"
expect_eq "readyz open" "$(k --username u --password p get --raw /readyz 2>&1)" "ok"
out=$(timeout 10 kubectl --server "https://127.0.0.1:$PORT" --token s3cret get ns 2>&1)
expect_has "unknown CA refused" "$out" "certificate"
stop
expect_eq "tls exit" "$?" "0"

start plain --db "$tmp/p.db" --events "$tmp/events.jsonl" || exit 1
# a body above the limit gets 413 without reaching the handler
head -c 4000000 /dev/zero | tr '\0' 'x' >"$tmp/big.json"
out=$(k create --raw /api/v1/namespaces -f "$tmp/big.json" 2>&1)
expect_has "body limit" "$out" "request body larger than"
out=$(k create -f "$EX/preempt.yaml" 2>&1)
expect_has "setup" "$out" "clusterqueue.kueue.x-k8s.io/cq-a created"
k create -f "$EX/low.yaml" >/dev/null 2>&1 || bad "create low"
k create -f "$EX/other.yaml" >/dev/null 2>&1 || bad "create other"
wait_for "low runs" "k -n team-a get job low -o jsonpath='{.spec.suspend}'" "false"
# team-b is not selected by cq-a: never admitted
wait_for "other misconfigured" "k -n team-b get workloads -o jsonpath='{.items[0].status.conditions[0].reason}'" "Misconfigured"
k create -f "$EX/high.yaml" >/dev/null 2>&1 || bad "create high"
wait_for "high runs" "k -n team-a get job high -o jsonpath='{.spec.suspend}'" "false"
wait_for "low preempted" "k -n team-a get job low -o jsonpath='{.spec.suspend}'" "true"
expect_eq "other still waits" "$(k -n team-b get job other -o jsonpath='{.spec.suspend}')" "true"
k get --raw /metrics >"$tmp/metrics.txt" 2>&1
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$tmp/metrics.txt" >"$tmp/promtool.out" 2>&1 ||
		bad "promtool: $(head -5 "$tmp/promtool.out")"
	ok
else
	echo "controller/$suite: promtool not found: metrics lint skipped"
fi
m=$(cat "$tmp/metrics.txt")
expect_has "preempted metric" "$m" 'kueue_preempted_workloads_total{preempting_cluster_queue="cq-a",reason="InClusterQueue"} 1'
expect_has "evicted metric" "$m" 'kueue_evicted_workloads_total{cluster_queue="cq-a",reason="Preempted"} 1'
expect_has "admitted gauge" "$m" 'kueue_admitted_active_workloads{cluster_queue="cq-a"} 1'
expect_has "pending gauge" "$m" 'kueue_pending_workloads{cluster_queue="cq-a",status='
expect_has "oldest pending" "$m" 'quotaflow_oldest_pending_workload_age_seconds{cluster_queue="cq-a"}'
stop
expect_eq "plain exit" "$?" "0"
# --events holds simulate's lines: audit-ready JSON with the pinned keys
expect_has "events file" "$(grep '"reason":"Preempted"' "$tmp/events.jsonl")" '"preemptor":"team-a/job-high-'
finish
