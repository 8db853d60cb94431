#!/bin/sh
# A DELETE's propagationPolicy as kube-apiserver and its garbage
# collector carry it out: Foreground leaves the owner, with its
# deletionTimestamp and the foregroundDeletion finalizer, until its
# dependents that block it (ownerReferences with blockOwnerDeletion) are
# gone; Orphan (the orphan finalizer) leaves the dependents without the
# reference; a batch/v1 Job orphans by default, with kube's warning.
# Before, Foreground went at once, as Background does, and Orphan left the
# reference on the dependents.  A Namespace takes the policy's finalizer
# too (before, none: it went at once when empty).
suite=propagation
. "$(dirname "$0")/lib.sh"


start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"

# Foreground: the Job waits for its Workload, which a finalizer holds
job_create f1 user-queue 1
wf=$(wl_of f1)
k patch workload "$wf" --type=json -p '[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/keep"}]' >/dev/null 2>&1 || bad "hold $wf"
out=$(k delete job f1 --cascade=foreground --wait=false 2>&1) || bad "delete f1: $out"
expect_eq "kubectl said" "$out" 'job.batch "f1" deleted'
expect_eq "the Job waits, foregroundDeletion" "$(meta job f1)" 'T|["foregroundDeletion"]'
expect_eq "its Workload is being deleted" "$(meta workload "$wf")" 'T|["example.com/keep"]'
k patch workload "$wf" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "release $wf"
wait_for "then the Job goes" "gone job f1" "gone"
expect_eq "and its Workload" "$(gone workload "$wf")" "gone"
# kubectl waits (its default) until the owner is gone
job_create f2 user-queue 1
wf=$(wl_of f2)
out=$(k delete job f2 --cascade=foreground 2>&1) || bad "delete f2: $out"
expect_eq "f2 gone" "$(gone job f2)/$(gone workload "$wf")" "gone/gone"

# Foreground of another kind: a LocalQueue owning a Workload
cat <<'YAML' | k create -f - >/dev/null 2>&1 || bad "create lq other"
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {namespace: default, name: other}
spec: {clusterQueue: cluster-queue}
YAML
luid=$(k get lq other -o jsonpath='{.metadata.uid}')
cat <<YAML | k create -f - >/dev/null 2>&1 || bad "create dep"
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: dep
  namespace: default
  finalizers: ["example.com/keep"]
  ownerReferences: [{apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, name: other, uid: "$luid", blockOwnerDeletion: true}]
spec:
  queueName: user-queue
  podSets: [{name: main, count: 1, template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]}}}]
YAML
k delete lq other --cascade=foreground --wait=false >/dev/null 2>&1 || bad "delete other"
expect_eq "the LocalQueue waits" "$(meta lq other)" 'T|["foregroundDeletion"]'
expect_eq "its dependent is being deleted" "$(meta workload dep)" 'T|["example.com/keep"]'
k patch workload dep --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "release dep"
wait_for "then the LocalQueue goes" "gone lq other" "gone"

# Orphan: the Workload stays, finished, without the reference
job_create o1 user-queue 1
wo=$(wl_of o1)
out=$(k delete job o1 --cascade=orphan 2>&1) || bad "delete o1: $out"
expect_eq "o1 gone" "$(gone job o1)" "gone"
expect_eq "its Workload stays, not owned" "$(k get workload "$wo" -o jsonpath='{.metadata.ownerReferences}|{.status.conditions[?(@.type=="Finished")].reason}')" "|OwnerNotFound"
# a Job another finalizer holds: orphan's goes, the dependents are let go
job_create o2 user-queue 1 example.com/keep
wo=$(wl_of o2)
k delete job o2 --cascade=orphan --wait=false >/dev/null 2>&1 || bad "delete o2"
wait_for "o2 held by its own finalizer only" "meta job o2" 'T|["example.com/keep"]'
expect_eq "its Workload not owned" "$(k get workload "$wo" -o jsonpath='{.metadata.ownerReferences}')" ""
k patch job o2 --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "release o2"
expect_eq "o2 gone" "$(gone job o2)" "gone"
expect_eq "its Workload stays" "$(gone workload "$wo")" "there"

# a DELETE of one being deleted changes its collector's finalizers only
job_create h1 user-queue 1 example.com/keep
wh=$(wl_of h1)
k delete job h1 --wait=false >/dev/null 2>&1 || bad "delete h1"
expect_eq "h1 held, background" "$(meta job h1)" 'T|["example.com/keep"]'
expect_eq "its Workload waits for it" "$(gone workload "$wh")" "there"
k delete job h1 --cascade=foreground --wait=false >/dev/null 2>&1 || bad "delete h1 again"
wait_for "then its Workload goes" "gone workload $wh" "gone"
expect_eq "h1 still held by its own" "$(meta job h1)" 'T|["example.com/keep"]'
k patch job h1 --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "release h1"
expect_eq "h1 gone" "$(gone job h1)" "gone"

# a DELETE without a policy: a batch/v1 Job orphans, and kube says so
U=http://127.0.0.1:$PORT/apis/batch/v1/namespaces/default/jobs
job_create r1 user-queue 1
wr=$(wl_of r1)
h=$(curl -s -D - -o /dev/null -X DELETE "$U/r1")
expect_has "the warning" "$h" 'Warning: 299 - "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning"'
wait_for "r1 gone" "gone job r1" "gone"
expect_eq "its Workload stays" "$(k get workload "$wr" -o jsonpath='{.metadata.ownerReferences}|{.status.conditions[?(@.type=="Finished")].reason}')" "|OwnerNotFound"
# the policy in the query: Background, no warning
job_create r2 user-queue 1
wr=$(wl_of r2)
h=$(curl -s -D - -o /dev/null -X DELETE "$U/r2?propagationPolicy=Background")
case "$h" in *Warning*) bad "a warning for an explicit policy: $h" ;; *) ok ;; esac
wait_for "r2's Workload gone" "gone workload $wr" "gone"

# without a policy, the collector's finalizer the object carries counts;
# Background asked for takes it off
job_create c1 user-queue 1 orphan
wc=$(wl_of c1)
curl -s -o /dev/null -X DELETE "$U/c1"
wait_for "c1 gone" "gone job c1" "gone"
expect_eq "c1's Workload stays, not owned" "$(k get workload "$wc" -o jsonpath='{.metadata.ownerReferences}|{.status.conditions[?(@.type=="Finished")].reason}')" "|OwnerNotFound"
job_create c2 user-queue 1 orphan
wc=$(wl_of c2)
k delete job c2 >/dev/null 2>&1 || bad "delete c2"
expect_eq "c2 and its Workload gone" "$(gone job c2)/$(gone workload "$wc")" "gone/gone"

# kube-apiserver answers the owner as it stored it, the finalizer on
job_create r3 user-queue 1
out=$(curl -s -X DELETE -H 'Content-Type: application/json' "$U/r3" -d '{"propagationPolicy":"Foreground"}' | python3 -c 'import json,sys
m=json.load(sys.stdin)["metadata"]
print(m["finalizers"], "deletionTimestamp" in m)')
expect_eq "the answer" "$out" "['foregroundDeletion'] True"
wait_for "r3 gone" "gone job r3" "gone"

# kube's ValidateDeleteOptions: a policy it does not know, or both ways
# of saying one (422, nothing deleted)
job_create v1 user-queue 1
msg() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["code"], d["message"])'; }
expect_eq "unknown policy" "$(curl -s -X DELETE -H 'Content-Type: application/json' "$U/v1" -d '{"propagationPolicy":"Later"}' | msg)" '422 DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Later": supported values: "Foreground", "Background", "Orphan", "nil"'
expect_eq "both set" "$(curl -s -X DELETE "$U/v1?propagationPolicy=Foreground&orphanDependents=true" | msg)" '422 DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set'
expect_eq "v1 stays" "$(gone job v1)" "there"
# orphanDependents: true orphans
wv=$(wl_of v1)
curl -s -o /dev/null -X DELETE -H 'Content-Type: application/json' "$U/v1" -d '{"orphanDependents":true}'
wait_for "v1 gone" "gone job v1" "gone"
expect_eq "v1's Workload stays" "$(gone workload "$wv")" "there"

# a Namespace takes the policy's finalizer too (the namespace
# registry's Delete), besides its own lifecycle: Orphan lets go of what
# names it as an owner, Foreground waits for it
mkrf() { # mkrf NAME NAMESPACE [FINALIZER]
	printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: %s\n  ownerReferences: [{apiVersion: v1, kind: Namespace, name: %s, uid: "%s", blockOwnerDeletion: true}]\n%s' \
		"$1" "$2" "$(k get ns "$2" -o jsonpath='{.metadata.uid}')" "${3:+  finalizers: [$3]
}" | k create -f - >/dev/null 2>&1 || bad "create rf $1"
}
nsmeta() { k get ns "$1" -o jsonpath='{.status.phase}|{.metadata.finalizers}|{.metadata.deletionGracePeriodSeconds}' 2>&1; }
k create ns n1 >/dev/null 2>&1 || bad "create n1"
mkrf rf1 n1
cat <<'YAML' | k create -f - >/dev/null 2>&1 || bad "create n1/held"
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {namespace: n1, name: held, finalizers: [example.com/keep]}
spec: {clusterQueue: cluster-queue}
YAML
out=$(curl -s -X DELETE -H 'Content-Type: application/json' "http://127.0.0.1:$PORT/api/v1/namespaces/n1?dryRun=All" -d '{"propagationPolicy":"Orphan"}' | python3 -c 'import json,sys
d=json.load(sys.stdin); print(d["kind"], d["metadata"].get("finalizers"), d["status"]["phase"])')
expect_eq "dry run: Orphan's finalizer" "$out" "Namespace ['orphan'] Terminating"
k delete ns n1 --cascade=orphan --wait=false >/dev/null 2>&1 || bad "delete n1"
wait_for "rf1 let go" "k get rf rf1 -o jsonpath='{.metadata.ownerReferences}'" ""
wait_for "n1 held by its LocalQueue alone" "nsmeta n1" "Terminating||"
k patch lq held -n n1 --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "release n1/held"
wait_for "n1 gone" "gone ns n1" "gone"
expect_eq "rf1 stays" "$(gone rf rf1)" "there"
k create ns n2 >/dev/null 2>&1 || bad "create n2"
mkrf rf2 n2 example.com/keep
k delete ns n2 --cascade=foreground --wait=false >/dev/null 2>&1 || bad "delete n2"
expect_eq "n2 waits, foregroundDeletion" "$(nsmeta n2)" 'Terminating|["foregroundDeletion"]|'
wait_for "rf2 being deleted" "meta rf rf2" 'T|["example.com/keep"]'
k patch rf rf2 --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "release rf2"
wait_for "then n2 goes" "gone ns n2" "gone"

# a restart finds an owner still waiting for its dependents
job_create f3 user-queue 1
wf=$(wl_of f3)
k patch workload "$wf" --type=json -p '[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/keep"}]' >/dev/null 2>&1 || bad "hold $wf"
k delete job f3 --cascade=foreground --wait=false >/dev/null 2>&1 || bad "delete f3"
stop || bad "stop a"
start b --db "$tmp/a.db" || exit 1
expect_eq "f3 still waits" "$(meta job f3)" 'T|["foregroundDeletion"]'
k patch workload "$wf" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "release $wf"
wait_for "f3 goes" "gone job f3" "gone"
stop || bad "stop b"
finish
