#!/bin/sh
# kube's garbage collector over every kind the controller stores (but
# Events, which it ignores): an object none of whose owners is there any
# more (gone, or another object with the name and not the uid) goes;
# with an owner left, its references to the gone ones are taken off; a
# reference it cannot resolve (a kind or version not served, a namespaced
# owner of a cluster-scoped object) keeps it.  Foreground: a dependent
# with another owner stays without the reference, one that owns objects
# itself is deleted in the foreground.  Before, only a Job's Workload went
# with its owner, and a Foreground owner deleted all its dependents in
# the background.  A reference without a version, kind, name or uid is
# refused, as kube's ObjectMeta validation refuses it.
suite=gc
. "$(dirname "$0")/lib.sh"

uid() { k get "$1" "$2" -o jsonpath='{.metadata.uid}'; }
owners() { k get "$1" "$2" -o jsonpath='{.metadata.ownerReferences[*].name}'; }
ref() { # ref KIND NAME UID [block]: one ownerReference (flow YAML)
	echo "{apiVersion: kueue.x-k8s.io/v1beta2, kind: $1, name: $2, uid: \"$3\"${4:+, blockOwnerDeletion: true}}"
}
mklq() { # mklq NAME [REFS]
	cat <<YAML | k create -f - >/dev/null 2>&1 || bad "create lq $1"
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  namespace: default
  name: $1
${2:+  ownerReferences: [$2]}
spec: {clusterQueue: cluster-queue}
YAML
}
mkrf() { # mkrf NAME REFS
	printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: %s\n  ownerReferences: [%s]\n' "$1" "$2" |
		k create -f - >/dev/null 2>&1 || bad "create rf $1"
}
mkwl() { # mkwl NAME REFS [FINALIZER]
	cat <<YAML | k create -f - >/dev/null 2>&1 || bad "create workload $1"
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: $1
  namespace: default
  ownerReferences: [$2]
${3:+  finalizers: ["$3"]}
spec:
  queueName: user-queue
  podSets: [{name: main, count: 1, template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]}}}]
YAML
}

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
uq=$(uid lq user-queue)

# kube's ValidateOwnerReferences: every reference has a version, kind,
# name and uid (the collector resolves it by them)
out=$(printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {namespace: default, name: bad, ownerReferences: [{apiVersion: kueue.x-k8s.io/, kind: LocalQueue, name: user-queue}]}\nspec: {clusterQueue: cluster-queue}\n' | k create -f - 2>&1)
expect_eq "a reference without version or uid" "$out" 'The LocalQueue "bad" is invalid: 
* metadata.ownerReferences.apiVersion: Invalid value: "kueue.x-k8s.io/": version must not be empty
* metadata.ownerReferences.uid: Invalid value: "": must not be empty'

# Background: a LocalQueue's Workload goes with it
mklq o1
mkwl w1 "$(ref LocalQueue o1 "$(uid lq o1)")"
k delete lq o1 >/dev/null 2>&1 || bad "delete o1"
wait_for "w1 goes with its LocalQueue" "gone workload w1" "gone"

# two owners: the reference to the one that goes is taken off, the
# other keeps it, until it goes too
mklq o2
mklq o3
mkwl w2 "$(ref LocalQueue o2 "$(uid lq o2)"), $(ref LocalQueue o3 "$(uid lq o3)")"
k delete lq o2 >/dev/null 2>&1 || bad "delete o2"
wait_for "w2 owned by o3 alone" "owners workload w2" "o3"
expect_eq "w2 stays" "$(gone workload w2)" "there"
k delete lq o3 >/dev/null 2>&1 || bad "delete o3"
wait_for "then w2 goes" "gone workload w2" "gone"

# stored with a dangling reference (the owner's name with another uid,
# an owner that does not exist): collected; one the collector cannot
# resolve (a kind or a version not served) and an Event stay
mkwl w5 "{apiVersion: v1, kind: Pod, name: p, uid: \"1\"}"
mkwl w6 "{apiVersion: kueue.x-k8s.io/v1alpha9, kind: LocalQueue, name: user-queue, uid: \"$uq\"}"
cat <<YAML | k create -f - >/dev/null 2>&1 || bad "create event"
apiVersion: v1
kind: Event
metadata:
  name: ev
  namespace: default
  ownerReferences: [$(ref LocalQueue nosuch 7)]
involvedObject: {kind: LocalQueue, name: user-queue, namespace: default}
reason: Test
message: owned by nothing
type: Normal
YAML
# a namespaced owner of a cluster-scoped object
mkrf rf-lq "$(ref LocalQueue user-queue "$uq")"
mkwl w3 "$(ref LocalQueue user-queue not-its-uid)"
mkwl w4 "$(ref LocalQueue nosuch 1234)"
wait_for "w3 collected (uid mismatch)" "gone workload w3" "gone"
wait_for "w4 collected (no owner)" "gone workload w4" "gone"
expect_eq "unresolved, Event, cluster-scoped stay" "$(gone workload w5) $(gone workload w6) $(gone event ev) $(gone rf rf-lq)" "there there there there"
expect_eq "user-queue untouched" "$(gone lq user-queue)" "there"

# a cluster-scoped owner: a ResourceFlavor owned by a ClusterQueue
cat <<'YAML' | k create -f - >/dev/null 2>&1 || bad "create cq2"
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq2}
spec:
  namespaceSelector: {}
  resourceGroups: [{coveredResources: [cpu], flavors: [{name: default-flavor, resources: [{name: cpu, nominalQuota: 1}]}]}]
YAML
mkrf rf-cq "$(ref ClusterQueue cq2 "$(uid cq cq2)")"
k delete cq cq2 >/dev/null 2>&1 || bad "delete cq2"
wait_for "rf-cq goes with cq2" "gone rf rf-cq" "gone"

# Foreground: a dependent with another owner stays, without the
# reference; the owner goes
mklq f1
mkwl w8 "$(ref LocalQueue f1 "$(uid lq f1)" block), $(ref LocalQueue user-queue "$uq")"
k delete lq f1 --cascade=foreground >/dev/null 2>&1 || bad "delete f1"
expect_eq "f1 gone" "$(gone lq f1)" "gone"
expect_eq "w8 stays, owned by user-queue" "$(gone workload w8) $(owners workload w8)" "there user-queue"

# Foreground through a dependent that owns objects: it is deleted in the
# foreground too, and waits for its own dependent, which a finalizer
# holds; then everything goes
mklq f2
mklq l5 "$(ref LocalQueue f2 "$(uid lq f2)" block)"
mkwl w9 "$(ref LocalQueue l5 "$(uid lq l5)" block)" example.com/keep
k delete lq f2 --cascade=foreground --wait=false >/dev/null 2>&1 || bad "delete f2"
wait_for "l5 deleted in the foreground" "meta lq l5" 'T|["foregroundDeletion"]'
expect_eq "w9 being deleted" "$(meta workload w9)" 'T|["example.com/keep"]'
expect_eq "f2 waits" "$(meta lq f2)" 'T|["foregroundDeletion"]'
k patch workload w9 --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "release w9"
wait_for "then f2 goes" "gone lq f2" "gone"
expect_eq "and l5, w9" "$(gone lq l5) $(gone workload w9)" "gone gone"
stop || bad "stop a"

# a start looks at every object once: one loaded owned by nothing goes
mkdir -p "$tmp/m"
cat >"$tmp/m/w.yaml" <<YAML
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: w10
  namespace: default
  ownerReferences: [$(ref LocalQueue nosuch 42)]
spec:
  queueName: user-queue
  podSets: [{name: main, count: 1, template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]}}}]
YAML
start b --db "$tmp/a.db" --manifests "$tmp/m" || exit 1
wait_for "w10 collected" "gone workload w10" "gone"
expect_eq "w5 still there" "$(gone workload w5)" "there"
stop || bad "stop b"
finish
