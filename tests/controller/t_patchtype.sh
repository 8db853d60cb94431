#!/bin/sh
# Patch types as kube-apiserver takes them: a Kueue kind is a custom
# resource, which has no strategic merge patch (kubectl patch's default
# --type): 415 with the types it takes, as kube answers, where it was
# applied as a merge patch; Jobs and Namespaces take all four; an unknown
# patch type is 415 in kube's words (tests/controller/lib.sh).
suite=patchtype
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k apply -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "setup"
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "job1"
expect_eq "strategic on a CRD" \
	"$(k patch cq cluster-queue -p '{"spec":{"stopPolicy":"Hold"}}' 2>&1)" \
	'error: application/strategic-merge-patch+json is not supported by kueue.x-k8s.io/v1beta2, Kind=ClusterQueue: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml'
expect_eq "not applied" "$(k get cq cluster-queue -o jsonpath='{.spec.stopPolicy}')" "None"
expect_eq "merge on a CRD" \
	"$(k patch cq cluster-queue --type=merge -p '{"spec":{"stopPolicy":"Hold"}}' 2>&1)" \
	"clusterqueue.kueue.x-k8s.io/cluster-queue patched"
expect_eq "json on a CRD" \
	"$(k patch cq cluster-queue --type=json -p '[{"op":"replace","path":"/spec/stopPolicy","value":"None"}]' 2>&1)" \
	"clusterqueue.kueue.x-k8s.io/cluster-queue patched"
expect_eq "strategic on a Job" \
	"$(k patch job job1 -p '{"metadata":{"labels":{"a":"b"}}}' 2>&1)" "job.batch/job1 patched"
out=$(curl -s -X PATCH -H 'Content-Type: text/plain' --data-binary '{}' \
	"http://127.0.0.1:$PORT/apis/batch/v1/namespaces/default/jobs/job1")
expect_eq "unknown type" "$out" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml","reason":"UnsupportedMediaType","code":415}'
stop || bad "stop"
finish
