#!/bin/sh
# Field selectors as kube-apiserver takes them: metadata.name for every
# kind, metadata.namespace for namespaced ones, and each kind's own
# fields (a Namespace's status.phase, an Event's involvedObject.*,
# reason, source, type, ..., a Job's status.successful, a v1beta2
# Workload's status.admission.clusterQueue, the selectableFields of its
# CRD); any other field is a 400 BadRequest for a list, a watch and a
# deletecollection, where it listed nothing; a selector that does not
# parse is a 400 even where there is nothing to match it against
# (tests/controller/lib.sh).
suite=fieldsel
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1"

# get [kubectl get args...]: stdout, or the error kubectl prints (it
# quotes the server's message after its own words)
get() { k get "$@" 2>&1; }
expect_eq "cq spec.foo" "$(get cq --field-selector spec.foo=x)" \
	'Error from server (BadRequest): Unable to find "kueue.x-k8s.io/v1beta2, Resource=clusterqueues" that match label selector "", field selector "spec.foo=x": field label not supported: spec.foo'
expect_has "cluster-scoped namespace" \
	"$(get cq --field-selector metadata.namespace=default)" \
	"(BadRequest): Unable to find \"kueue.x-k8s.io/v1beta2, Resource=clusterqueues\" that match label selector \"\", field selector \"metadata.namespace=default\": field label not supported: metadata.namespace"
expect_has "ns namespace" "$(get ns --field-selector metadata.namespace=)" \
	"(BadRequest): Unable to find \"/v1, Resource=namespaces\" that match label selector \"\", field selector \"metadata.namespace=\": field label not supported: metadata.namespace"
expect_eq "ns phase" "$(get ns --field-selector status.phase=Active -o name)" \
	"namespace/default"
expect_has "job spec" "$(get jobs --field-selector spec.parallelism=3)" \
	'(BadRequest): Unable to find "batch/v1, Resource=jobs" that match label selector "", field selector "spec.parallelism=3": field label "spec.parallelism" not supported for Job'
expect_eq "job successful 0" \
	"$(get jobs --field-selector status.successful=0 -o name)" "job.batch/job1"
expect_eq "name and namespace" \
	"$(get jobs -A --field-selector metadata.name=job1,metadata.namespace=default -o name)" \
	"job.batch/job1"
wait_for "admitted" \
	"k get workloads --field-selector status.admission.clusterQueue=cluster-queue -o name" \
	"workload.kueue.x-k8s.io/$(k get workloads -o jsonpath='{.items[0].metadata.name}')"
out=$(k get --raw "/apis/kueue.x-k8s.io/v1beta1/namespaces/default/workloads?fieldSelector=status.admission.clusterQueue%3Dcluster-queue" 2>&1)
expect_has "v1beta1 has no selectable field" "$out" \
	"field label not supported: status.admission.clusterQueue"
expect_has "event field" "$(get events --field-selector involvedObject.foo=x)" \
	"(BadRequest): Unable to find \"/v1, Resource=events\" that match label selector \"\", field selector \"involvedObject.foo=x\": field label not supported: involvedObject.foo"
n=$(k get events --field-selector involvedObject.kind=Workload,reason=QuotaReserved,type=Normal,source=kueue-admission -o name | wc -l)
expect_eq "event fields" "$n" "1"
# a watch is refused before it starts
out=$(timeout 5 kubectl $S get --raw "/apis/kueue.x-k8s.io/v1beta2/clusterqueues?watch=1&fieldSelector=spec.cohortName%3Dx" 2>&1)
expect_has "watch" "$out" "field label not supported: spec.cohortName"
# a deletecollection deletes nothing
expect_has "deletecollection" \
	"$(k delete --raw "/apis/kueue.x-k8s.io/v1beta2/resourceflavors?fieldSelector=spec.nodeLabels%3Dx" 2>&1)" \
	"field label not supported: spec.nodeLabels"
expect_eq "flavor kept" "$(k get rf -o name)" \
	"resourceflavor.kueue.x-k8s.io/default-flavor"
# a malformed selector is refused on a collection with nothing in it
# too (it was parsed object by object: no objects, no error)
expect_has "label syntax, empty" "$(get cohorts -l 'a in (b')" \
	'(BadRequest): Unable to find "kueue.x-k8s.io/v1beta2, Resource=cohorts" that match label selector "a in (b", field selector "": unable to parse requirement in label selector "a in (b"'
expect_has "field syntax, empty" "$(get cohorts --field-selector foo)" \
	'(BadRequest): Unable to find "kueue.x-k8s.io/v1beta2, Resource=cohorts" that match label selector "", field selector "foo": unable to parse requirement in field selector "foo"'
# a finished Job is selected by its succeeded pods
"$QF" finish default/job1 --server "http://127.0.0.1:$PORT" >/dev/null 2>&1 ||
	bad "finish job1"
expect_eq "job successful 3" \
	"$(get jobs --field-selector status.successful=3 -o name)" "job.batch/job1"
stop || bad "stop"
finish
