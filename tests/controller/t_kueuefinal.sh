#!/bin/sh
# A DELETE of an object Kueue's resource-in-use finalizer names, Kueue
# letting go at once: kube-apiserver stores it being deleted
# (markAsDeleting: deletionTimestamp, deletionGracePeriodSeconds 0,
# generation one more, the finalizer kept) and answers the DELETE with
# it; Kueue's reconciler then takes its finalizer off in an update of its
# own, and the object goes with it.  A watch sees MODIFIED, then DELETED,
# each with its own resourceVersion; an object another finalizer holds
# moves twice (MODIFIED, MODIFIED).  Kueue: workload.RemoveFinalizer,
# clusterqueue_controller.go, resourceflavor_controller.go and
# admissioncheck_controller.go Reconcile.
suite=kueuefinal
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
U=http://127.0.0.1:$PORT
KQ=$U/apis/kueue.x-k8s.io/v1beta2
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"

# del URL COLL NAME: DELETE URL, then the watch of COLL replayed from the
# version before it; prints the answer (kind, resourceVersion, being
# deleted, grace period, generation, finalizers) and one line per event
# on NAME (type, resourceVersion, finalizers)
del() {
	rv=$(curl -s "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["resourceVersion"])')
	curl -s -X DELETE "$1" >"$tmp/ans.json"
	timeout 1 curl -sN "$2?watch=1&resourceVersion=$rv" >"$tmp/w.json" 2>/dev/null
	python3 - "$tmp/ans.json" "$tmp/w.json" "$3" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
m = a.get("metadata", {})
print(a["kind"], m.get("resourceVersion"), "deletionTimestamp" in m,
      m.get("deletionGracePeriodSeconds"), m.get("generation"),
      ",".join(m.get("finalizers", [])))
for line in open(sys.argv[2]):
    e = json.loads(line)
    em = e["object"]["metadata"]
    if em.get("name") == sys.argv[3]:
        print(e["type"], em["resourceVersion"], ",".join(em.get("finalizers", [])))
PY
}
# rel: del's lines, their versions made relative to the answer's
# (N, N+1, ...), so that an expectation names no number
rel() {
	awk 'NR==1 { base=$2; $2="N"; print; next }
	{ $2 = "N+" ($2 - base); sub(/N\+0$/, "N", $2); print }'
}
F=kueue.x-k8s.io/resource-in-use
# flavor_and_cq RF CQ [FINALIZER]: a ResourceFlavor and a ClusterQueue
# of 1 CPU (of default-flavor), which nothing uses
flavor_and_cq() {
	cat <<YAML | k create -f - >/dev/null 2>&1 || bad "create $1, $2"
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: $1${3:+, finalizers: ["$3"]}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: $2${3:+, finalizers: ["$3"]}}
spec:
  resourceGroups:
  - coveredResources: ["cpu"]
    flavors:
    - name: default-flavor
      resources: [{name: cpu, nominalQuota: 1}]
YAML
}

# a Workload of its own with only Kueue's finalizer, admitted
wl_create own user-queue 1 "$F"
wait_for "own admitted" "k get workload own -o jsonpath='{.status.admission.clusterQueue}'" "cluster-queue"
out=$(del "$KQ/namespaces/default/workloads/own" "$KQ/namespaces/default/workloads" own | rel)
expect_eq "workload: answered being deleted, then gone" "$out" "Workload N True 0 2 $F
MODIFIED N $F
DELETED N+1 $F"
expect_eq "own gone" "$(gone workload own)" "gone"
wait_for "its quota free" "k get clusterqueue cluster-queue -o jsonpath='{.status.admittedWorkloads}'" "0"

# an unused ClusterQueue and ResourceFlavor (the webhooks' finalizer)
# and AdmissionCheck (its reconciler's)
flavor_and_cq spare spare-cq
cat <<'YAML' | k create -f - >/dev/null 2>&1 || bad "create spare-check"
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata: {name: spare-check}
spec: {controllerName: example.com/check}
YAML
out=$(del "$KQ/clusterqueues/spare-cq" "$KQ/clusterqueues" spare-cq | rel)
expect_eq "clusterqueue: answered being deleted, then gone" "$out" "ClusterQueue N True 0 2 $F
MODIFIED N $F
DELETED N+1 $F"
out=$(del "$KQ/resourceflavors/spare" "$KQ/resourceflavors" spare | rel)
expect_eq "resourceflavor: answered being deleted, then gone" "$out" "ResourceFlavor N True 0 2 $F
MODIFIED N $F
DELETED N+1 $F"
wait_for "the check's finalizer" "k get admissioncheck spare-check -o jsonpath='{.metadata.finalizers}'" "[\"$F\"]"
out=$(del "$KQ/admissionchecks/spare-check" "$KQ/admissionchecks" spare-check | rel)
expect_eq "admissioncheck: answered being deleted, then gone" "$out" "AdmissionCheck N True 0 2 $F
MODIFIED N $F
DELETED N+1 $F"
for o in clusterqueue/spare-cq resourceflavor/spare admissioncheck/spare-check; do
	expect_eq "$o gone" "$(gone "${o%/*}" "${o#*/}")" "gone"
done

# Kueue's own delete of a Workload (workload.Delete: a running Job's
# Workload no longer matches it): its finalizer off in an update first,
# then the DELETE, which nothing holds
sed 's/name: job1/name: j1/' "$EX/job1.yaml" | k create -f - >/dev/null 2>&1 || bad "create j1"
w=$(wl_of j1)
wait_for "j1 runs" "k get job j1 -o jsonpath='{.spec.suspend}'" "false"
uid=$(k get workload "$w" -o jsonpath='{.metadata.uid}')
rv=$(k get workload "$w" -o jsonpath='{.metadata.resourceVersion}')
k patch job j1 --type=merge -p '{"spec":{"parallelism":2}}' >/dev/null 2>&1 || bad "patch j1"
timeout 1 curl -sN "$KQ/namespaces/default/workloads?watch=1&resourceVersion=$rv" >"$tmp/w.json" 2>/dev/null
out=$(python3 - "$tmp/w.json" "$uid" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    m = e["object"]["metadata"]
    if m["uid"] == sys.argv[2]:
        print(e["type"], "deletionTimestamp" in m, ",".join(m.get("finalizers", [])))
PY
)
expect_eq "kueue's delete: its finalizer first" "$out" "MODIFIED False 
DELETED False "
k delete job j1 >/dev/null 2>&1 || bad "delete j1"

# held by a client's finalizer too: two writes, the DELETE's and
# Kueue's, which leaves the client's finalizer
flavor_and_cq held held-cq example.com/keep
wl_create held user-queue 1 "$F"
k patch workload held --type=json -p '[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/keep"}]' >/dev/null 2>&1 || bad "hold the workload"
out=$(del "$KQ/namespaces/default/workloads/held" "$KQ/namespaces/default/workloads" held | rel | sed -n 1,3p)
expect_eq "held workload: two writes" "$out" "Workload N True 0 2 $F,example.com/keep
MODIFIED N $F,example.com/keep
MODIFIED N+1 example.com/keep"
out=$(del "$KQ/clusterqueues/held-cq" "$KQ/clusterqueues" held-cq | rel | sed -n 1,3p)
expect_eq "held clusterqueue: two writes" "$out" "ClusterQueue N True 0 2 example.com/keep,$F
MODIFIED N example.com/keep,$F
MODIFIED N+1 example.com/keep"
out=$(del "$KQ/resourceflavors/held" "$KQ/resourceflavors" held | rel)
expect_eq "held resourceflavor: two writes" "$out" "ResourceFlavor N True 0 2 example.com/keep,$F
MODIFIED N example.com/keep,$F
MODIFIED N+1 example.com/keep"
for o in workload/held clusterqueue/held-cq resourceflavor/held; do
	expect_eq "$o held" "$(meta "${o%/*}" "${o#*/}")" 'T|["example.com/keep"]'
done
stop
expect_eq "stop" "$?" "0"
# the store has what the second write left
start b --db "$tmp/a.db" || exit 1
for o in workload/held clusterqueue/held-cq resourceflavor/held; do
	expect_eq "$o held after a restart" "$(meta "${o%/*}" "${o#*/}")" 'T|["example.com/keep"]'
	k patch "${o%/*}" "${o#*/}" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "unhold $o"
	expect_eq "$o gone" "$(gone "${o%/*}" "${o#*/}")" "gone"
done
stop
expect_eq "stop b" "$?" "0"
finish
