#!/bin/sh
# Deletion of Events, Workloads and Jobs whose metadata.finalizers hold
# it, as kube-apiserver keeps them (deletionTimestamp and
# deletionGracePeriodSeconds 0 until an update empties the list; no new
# finalizer meanwhile) and Kueue reacts: a Workload being deleted keeps
# its quota until it is gone (Kueue's cache), a Job's Workload loses
# Kueue's resource-in-use finalizer and stops its Job, and a Job being
# deleted has its Workload finished (OwnerNotFound), its quota free.
suite=deleting
. "$(dirname "$0")/lib.sh"

admitted() {
	k get clusterqueue cluster-queue -o jsonpath='{.status.admittedWorkloads}'
}
unhold() {
	k patch "$@" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "unhold $*"
}

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"

# an Event held by a finalizer: kept, shown terminating, then gone
cat >"$tmp/ev.yaml" <<'EOF'
apiVersion: v1
kind: Event
metadata: {name: held, namespace: default, finalizers: ["example.com/keep"]}
involvedObject: {kind: Job, name: x, namespace: default}
reason: Test
message: held
type: Normal
EOF
k create -f "$tmp/ev.yaml" >/dev/null 2>&1 || bad "create event"
out=$(k delete event held --wait=false 2>&1) || bad "delete event: $out"
expect_has "event delete said" "$out" 'event "held" deleted'
y=$(k get event held -o yaml 2>&1)
expect_has "event deletionTimestamp" "$y" "deletionTimestamp: "
expect_has "event grace 0" "$y" "deletionGracePeriodSeconds: 0"
out=$(k patch event held --type=json -p '[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/late"}]' 2>&1) && bad "a new finalizer on a held event"
expect_has "no new finalizers" "$out" 'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/late"}'
out=$(k delete event held --wait=false 2>&1) || bad "delete again: $out"
unhold event held
expect_has "event gone" "$(k get event held 2>&1)" "NotFound"
# kubectl delete waits (its default) until the finalizer goes
k create -f "$tmp/ev.yaml" >/dev/null 2>&1 || bad "create event again"
k delete event held >"$tmp/del.out" 2>&1 &
dpid=$!
wait_for "waiting delete holds it" "k get event held -o jsonpath='{.metadata.deletionGracePeriodSeconds}'" "0"
unhold event held
wait $dpid
expect_eq "waiting delete ends" "$?" "0"
expect_has "waiting delete said" "$(cat "$tmp/del.out")" 'event "held" deleted'

# a Namespace held by its own metadata.finalizers, empty: Terminating
# until they go
k create namespace held-ns >/dev/null 2>&1 || bad "create held-ns"
k patch namespace held-ns --type=merge -p '{"metadata":{"finalizers":["example.com/keep"]}}' >/dev/null 2>&1 || bad "hold held-ns"
k delete namespace held-ns --wait=false >/dev/null 2>&1 || bad "delete held-ns"
# the namespace registry sets no grace period; emptied, the namespace
# controller finalizes it (spec.finalizers)
wait_for "ns terminating, finalized" "k get ns held-ns -o jsonpath='{.status.phase}|{.metadata.deletionGracePeriodSeconds}|{.spec.finalizers}'" "Terminating||"
unhold namespace held-ns
wait_for "ns gone" "k get ns held-ns -o name 2>&1" 'Error from server (NotFound): namespaces "held-ns" not found'

# an empty Namespace: the DELETE answers it Terminating, as the
# namespace registry does; the namespace controller's removal follows
k create namespace empty-ns >/dev/null 2>&1 || bad "create empty-ns"
out=$(curl -s -X DELETE "http://127.0.0.1:$PORT/api/v1/namespaces/empty-ns" | python3 -c 'import json,sys
d=json.load(sys.stdin); print(d["kind"], d.get("status",{}).get("phase"), "deletionTimestamp" in d["metadata"])')
expect_eq "empty-ns answered Terminating" "$out" "Namespace Terminating True"
wait_for "empty-ns gone" "gone ns empty-ns" "gone"

# a Workload of its own, admitted and held: it keeps its quota until gone
wl_create own user-queue 9 example.com/keep
wait_for "own admitted" admitted "1"
k delete workload own --wait=false >/dev/null 2>&1 || bad "delete own"
expect_has "own terminating" "$(k get workload own -o jsonpath='{.metadata.deletionTimestamp}')" "T"
expect_eq "own keeps its finalizer" "$(k get workload own -o jsonpath='{.metadata.finalizers}')" '["example.com/keep"]'
expect_eq "own's generation one more (markAsDeleting)" "$(k get workload own -o jsonpath='{.metadata.generation}')" "2"
job_create waiter user-queue 1
w=$(wl_of waiter)
wait_for "the quota stays taken" "k get workload $w -o jsonpath='{.status.conditions[?(@.type==\"QuotaReserved\")].reason}'" "WaitingForQuota"
expect_eq "still admitted" "$(admitted)" "1"
k patch workload own --type=json -p '[{"op":"remove","path":"/metadata/finalizers/0"}]' >/dev/null 2>&1 || bad "remove own's finalizer"
expect_has "own gone" "$(k get workload own 2>&1)" "NotFound"
wait_for "waiter runs" "k get job waiter -o jsonpath='{.spec.suspend}'" "false"
k delete job waiter >/dev/null 2>&1 || bad "delete waiter"

# a Job's Workload held by a client's finalizer: Kueue takes its own off
# and stops the Job; the quota stays until the Workload goes, then the
# Job gets a new one
job_create j1 user-queue 3
w1=$(wl_of j1)
wait_for "j1 runs" "k get job j1 -o jsonpath='{.spec.suspend}'" "false"
expect_eq "kueue's finalizer" "$(k get workload "$w1" -o jsonpath='{.metadata.finalizers}')" '["kueue.x-k8s.io/resource-in-use"]'
k patch workload "$w1" --type=json -p '[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/keep"}]' >/dev/null 2>&1 || bad "add a finalizer to $w1"
expect_eq "both" "$(k get workload "$w1" -o jsonpath='{.metadata.finalizers}')" '["kueue.x-k8s.io/resource-in-use","example.com/keep"]'
k delete workload "$w1" --wait=false >/dev/null 2>&1 || bad "delete $w1"
wait_for "kueue's taken off" "k get workload $w1 -o jsonpath='{.metadata.finalizers}'" '["example.com/keep"]'
wait_for "j1 stopped" "k get job j1 -o jsonpath='{.spec.suspend}'" "true"
expect_has "stopped: workload is deleted" "$(k get events --field-selector involvedObject.name=j1,reason=Stopped -o jsonpath='{.items[*].message}')" "Workload is deleted"
expect_eq "quota still held" "$(admitted)" "1"
unhold workload "$w1"
wait_for "a new workload" "k get workload $w1 -o jsonpath='{.metadata.deletionTimestamp}{.metadata.finalizers}'" '["kueue.x-k8s.io/resource-in-use"]'
wait_for "j1 runs again" "k get job j1 -o jsonpath='{.spec.suspend}'" "false"
# its Job deleted while a finalizer holds the Workload: the garbage
# collector's deletion leaves it terminating, Kueue finishes it
k patch workload "$w1" --type=json -p '[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/keep"}]' >/dev/null 2>&1 || bad "hold $w1 again"
k delete job j1 >/dev/null 2>&1 || bad "delete j1"
expect_has "its workload terminating" "$(k get workload "$w1" -o jsonpath='{.metadata.deletionTimestamp}')" "T"
expect_eq "finished: its owner is gone" "$(k get workload "$w1" -o jsonpath='{.status.conditions[?(@.type=="Finished")].reason}')" "OwnerNotFound"
wait_for "its quota free" admitted "0"
unhold workload "$w1"
expect_has "then gone" "$(k get workload "$w1" 2>&1)" "NotFound"

# a Job held by a finalizer: Kueue finishes its Workload (its owner is
# going), the quota is free; the Workload goes when the Job does
job_create j2 user-queue 2 example.com/keep
w2=$(wl_of j2)
wait_for "j2 admitted" admitted "1"
k delete job j2 --wait=false >/dev/null 2>&1 || bad "delete j2"
expect_has "j2 terminating" "$(k get job j2 -o jsonpath='{.metadata.deletionTimestamp}')" "T"
wait_for "j2's workload finished" "k get workload $w2 -o jsonpath='{.status.conditions[?(@.type==\"Finished\")].reason}'" "OwnerNotFound"
expect_eq "its message" "$(k get workload "$w2" -o jsonpath='{.status.conditions[?(@.type=="Finished")].message}')" "The workload's owner no longer exists"
expect_eq "its finalizer off" "$(k get workload "$w2" -o jsonpath='{.metadata.finalizers}')" ""
wait_for "quota free" admitted "0"
stop
expect_eq "stop" "$?" "0"
start b --db "$tmp/a.db" || exit 1
expect_has "held across a restart" "$(k get job j2 -o jsonpath='{.metadata.deletionTimestamp}')" "T"
unhold job j2
expect_has "j2 gone" "$(k get job j2 2>&1)" "NotFound"
wait_for "its workload gone" "k get workload $w2 -o name 2>&1" "Error from server (NotFound): workloads.kueue.x-k8s.io \"$w2\" not found"
stop
expect_eq "stop b" "$?" "0"
finish
