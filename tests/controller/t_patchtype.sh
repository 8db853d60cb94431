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
# a patch that changes kind or apiVersion is refused as kube-apiserver
# refuses it (they were accepted, the change dropped): a custom
# resource's own kind by its validator, an apiVersion its converter
# cannot take and a built-in kind's decoder as the patch's Invalid cause
expect_eq "kind of a CRD" \
	"$(k patch cq cluster-queue --type=merge -p '{"kind":"Foo"}' 2>&1)" \
	'The Foo "cluster-queue" is invalid: kind: Invalid value: "Foo": must be ClusterQueue'
expect_eq "kind removed" \
	"$(k patch cq cluster-queue --type=json -p '[{"op":"remove","path":"/kind"}]' 2>&1)" \
	"The request is invalid: patch: Invalid value: \"...\": Object 'Kind' is missing in '...'"
expect_eq "other group" \
	"$(k patch cq cluster-queue --type=merge -p '{"apiVersion":"foo/v1"}' 2>&1)" \
	'The request is invalid: patch: Invalid value: "...": foo/v1, Kind=ClusterQueue is unstructured and is not suitable for converting to "kueue.x-k8s.io/v1beta2"'
expect_eq "version not served" \
	"$(k patch cq cluster-queue --type=merge -p '{"apiVersion":"kueue.x-k8s.io/v9"}' 2>&1)" \
	'The request is invalid: patch: Invalid value: "...": request to convert CR from an invalid group/version: kueue.x-k8s.io/v9'
expect_eq "kind of a Job" \
	"$(k patch job job1 --type=merge -p '{"kind":"Foo"}' 2>&1)" \
	'The request is invalid: patch: Invalid value: "...": no kind "Foo" is registered for version "batch/v1" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"'
expect_eq "apiVersion of a Job" \
	"$(k patch job job1 --type=json -p '[{"op":"replace","path":"/apiVersion","value":"batch/v2"}]' 2>&1)" \
	'The request is invalid: patch: Invalid value: "...": no kind "Job" is registered for version "batch/v2" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"'
# a strategic merge patch makes a Job of its Go type: kind ignored
expect_eq "strategic kind" \
	"$(k patch job job1 -p '{"kind":"Foo"}' 2>&1)" "job.batch/job1 patched (no change)"
out=$(curl -s -X PATCH -H 'Content-Type: application/merge-patch+json' \
	--data-binary '{"kind":"Foo"}' \
	"http://127.0.0.1:$PORT/apis/batch/v1/namespaces/default/jobs/job1")
expect_eq "Status" "$out" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":" \"\" is invalid: patch: Invalid value: \"...\": no kind \"Foo\" is registered for version \"batch/v1\" in scheme \"k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30\"","reason":"Invalid","code":422,"details":{"causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"...\": no kind \"Foo\" is registered for version \"batch/v1\" in scheme \"k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30\"","field":"patch"}]}}'
expect_eq "unchanged" "$(k get cq cluster-queue -o jsonpath='{.kind}/{.apiVersion}') $(k get job job1 -o jsonpath='{.kind}')" "ClusterQueue/kueue.x-k8s.io/v1beta2 Job"
stop || bad "stop"
finish
