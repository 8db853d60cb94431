#!/bin/sh
# What kube-apiserver refuses before it writes: the namespaces
# NamespaceLifecycle keeps (default, kube-system, kube-public: 403, also
# in a dry run and in a deletecollection, which then deletes nothing),
# and the preconditions of a DELETE (uid, resourceVersion) and the uid of
# an update or patch body (409, the storage error quoted); each was
# ignored, so `kubectl delete ns --all` emptied default and a replace
# from a stale file overwrote the object made anew (tests/controller/lib.sh).
suite=guard
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
U=http://127.0.0.1:$PORT
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1"
k create namespace kube-system >/dev/null 2>&1 || bad "create kube-system"
k create namespace scratch >/dev/null 2>&1 || bad "create scratch"

out=$(k delete namespace default 2>&1) && bad "default deleted"
expect_eq "default kept" "$out" 'Error from server (Forbidden): namespaces "default" is forbidden: this namespace may not be deleted'
out=$(k delete namespace default --dry-run=server 2>&1) && bad "default deleted (dry run)"
expect_has "dry run refused too" "$out" "this namespace may not be deleted"
out=$(k delete namespace --all 2>&1) && bad "delete --all succeeded"
expect_has "kube-system kept" "$out" 'namespaces "kube-system" is forbidden'
expect_eq "others deleted" "$(k get ns -o name | tr '\n' ' ')" "namespace/default namespace/kube-system "
expect_eq "job1 kept" "$(k get job job1 -o name 2>&1)" "job.batch/job1"
k create namespace scratch >/dev/null 2>&1 || bad "create scratch again"
code=$(curl -s -o "$tmp/dc.json" -w '%{http_code}' -X DELETE "$U/api/v1/namespaces")
expect_eq "deletecollection refused" "$code" "403"
expect_eq "deletecollection: nothing deleted" "$(k get ns scratch -o name 2>&1)" "namespace/scratch"

uid=$(k get rf default-flavor -o jsonpath='{.metadata.uid}')
rv=$(k get rf default-flavor -o jsonpath='{.metadata.resourceVersion}')
del() {
	curl -s -w ' %{http_code}' -X DELETE -H 'Content-Type: application/json' \
		"$U/apis/kueue.x-k8s.io/v1beta2/resourceflavors/default-flavor" -d "$1"
}
out=$(del '{"preconditions":{"uid":"abc"}}')
expect_has "uid precondition" "$out" "Operation cannot be fulfilled on resourceflavors.kueue.x-k8s.io \\\"default-flavor\\\": StorageError: invalid object, Code: 4, Key: /registry/kueue.x-k8s.io/resourceflavors/default-flavor, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: abc, UID in object meta: $uid"
expect_has "uid precondition: 409" "$out" '"reason":"Conflict","code":409} 409'
out=$(del '{"preconditions":{"resourceVersion":"1"}}')
expect_has "version precondition" "$out" "Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: $rv"
expect_eq "flavor kept" "$(k get rf -o name)" "resourceflavor.kueue.x-k8s.io/default-flavor"
# an update or a patch naming another uid (a file of the object before it
# was deleted and made again) is refused, not written
out=$(k get rf default-flavor -o json | sed 's/"uid": ".*"/"uid": "old-uid"/' | k replace -f - 2>&1) && bad "replace with another uid"
expect_has "update: uid precondition" "$out" "Precondition failed: UID in precondition: old-uid, UID in object meta: $uid"
out=$(k patch rf default-flavor --type=merge -p '{"metadata":{"uid":"zz","labels":{"a":"b"}}}' 2>&1) && bad "patch with another uid"
expect_has "patch: uid precondition" "$out" 'Key: /registry/kueue.x-k8s.io/resourceflavors/default-flavor'
expect_eq "not labelled" "$(k get rf default-flavor -o jsonpath='{.metadata.labels}')" ""
out=$(k patch rf default-flavor --type=merge -p "{\"metadata\":{\"uid\":\"$uid\",\"labels\":{\"a\":\"b\"}}}" 2>&1) || bad "patch with its uid: $out"
out=$(del "{\"preconditions\":{\"uid\":\"$uid\"}}")
# Kueue's finalizer holds a flavor a ClusterQueue names: the deletion
# is taken and the object answered with its deletion time
expect_has "matching precondition deletes" "$out" '"deletionTimestamp":'
# a built-in kind's key has no group (etcd's /registry/jobs)
jid=$(k get job job1 -o jsonpath='{.metadata.uid}')
out=$(curl -s -X DELETE -H 'Content-Type: application/json' "$U/apis/batch/v1/namespaces/default/jobs/job1" -d '{"preconditions":{"uid":"x"}}')
expect_has "job key" "$out" "Key: /registry/jobs/default/job1, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: x, UID in object meta: $jid"
stop
expect_eq "stop" "$?" "0"
finish
