#!/bin/sh
# kubectl apply of a file that mixes kinds the controller does not serve
# (Kueue's Topology, a Deployment) with ones it does: as against a
# cluster without those CRDs, the served objects are applied and each
# other one is "no matches for kind"; /openapi/v2, which kubectl reads
# for a kind /openapi/v3 does not list, was a 404 that stopped the whole
# file with "failed to download openapi" (tests/controller/lib.sh).
suite=unserved
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
out=$(k apply -f "$EX/unserved.yaml" 2>"$tmp/err")
expect_eq "served applied" "$out" "resourceflavor.kueue.x-k8s.io/tas-flavor created
localqueue.kueue.x-k8s.io/tas-user-queue created"
err=$(cat "$tmp/err")
expect_has "topology" "$err" 'no matches for kind "Topology" in version "kueue.x-k8s.io/v1beta2"'
expect_has "deployment" "$err" 'no matches for kind "Deployment" in version "apps/v1"'
expect_eq "no openapi error" "$(grep -c openapi "$tmp/err")" "0"
expect_eq "stored" "$(k get rf,lq -o name | tr '\n' ' ')" \
	"resourceflavor.kueue.x-k8s.io/tas-flavor localqueue.kueue.x-k8s.io/tas-user-queue "
# the v2 document kubectl reads: JSON when asked for it
expect_eq "v2 json" "$(k get --raw /openapi/v2)" \
	'{"swagger":"2.0","info":{"title":"quotaflow","version":"v1.32.0"},"paths":{}}'
# kubectl explain of a served kind without a schema still says so
expect_has "explain job" "$(k explain job 2>&1)" "not found in OpenAPI schema"
stop || bad "stop"
finish
