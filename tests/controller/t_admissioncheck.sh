#!/bin/sh
# AdmissionChecks served as Kueue's CRD (short name ac, /status): Kueue's
# AdmissionCheck reconciler puts its resource-in-use finalizer on each one
# and takes it off a deleted one once no ClusterQueue names it; a check's
# controller writes the check's Active condition and the Workloads' check
# states (/status), and a Job runs only once its Workload is admitted
# (every check Ready).  A LocalQueue being deleted (a finalizer holds it)
# takes the reservation back from its workloads that wait for checks,
# with Kueue's "LocalQueue NAME is terminating or missing"; admitted ones
# keep running.  A check being deleted takes updates that Kueue's cache
# ignores.
suite=admissioncheck
. "$(dirname "$0")/lib.sh"

cond() { # cond WORKLOAD TYPE FIELD
	k get workload "$1" -o jsonpath="{.status.conditions[?(@.type==\"$2\")].$3}"
}
ready() { # ready WORKLOAD: its check "check" Ready, as its controller says
	k patch workload "$1" --subresource=status --type=merge -p '{"status":{"admissionChecks":[{"name":"check","state":"Ready","message":"ok","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}' >/dev/null 2>&1 || bad "check ready on $1"
}
active() {
	k get cq cq -o jsonpath='{.status.conditions[?(@.type=="Active")].reason}'
}

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/checked.yaml" -f "$EX/held.yaml" >/dev/null 2>&1 || bad "create policy"
wait_for "kueue's finalizer on the check" "k get ac check -o jsonpath='{.metadata.finalizers}'" '["kueue.x-k8s.io/resource-in-use"]'
expect_eq "listed" "$(k get admissionchecks -o name)" "admissioncheck.kueue.x-k8s.io/check"
# Active is its controller's to say: inactive until then
wait_for "cq waits for the check" active "AdmissionCheckInactive"
k patch ac check --subresource=status --type=merge -p '{"status":{"conditions":[{"type":"Active","status":"True","reason":"Ready","message":"ok","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}' >/dev/null 2>&1 || bad "activate the check"
wait_for "cq active" active "Ready"

# quota reserved, the Job waits for its check
job_create j1 lq 2
w1=$(wl_of j1)
wait_for "j1 reserved" "cond $w1 QuotaReserved status" "True"
expect_eq "not admitted yet" "$(cond "$w1" Admitted reason)" "UnsatisfiedAdmissionChecks"
expect_eq "j1 waits" "$(k get job j1 -o jsonpath='{.spec.suspend}')" "true"
ready "$w1"
wait_for "j1 admitted" "cond $w1 Admitted status" "True"
wait_for "j1 runs" "k get job j1 -o jsonpath='{.spec.suspend}'" "false"

# a LocalQueue being deleted: what waits for checks loses its
# reservation, what runs keeps running
job_create j2 held 2
w2=$(wl_of j2)
wait_for "j2 reserved" "cond $w2 QuotaReserved status" "True"
job_create j3 held 2
w3=$(wl_of j3)
ready "$w3"
wait_for "j3 runs" "k get job j3 -o jsonpath='{.spec.suspend}'" "false"
k delete lq held --wait=false >/dev/null 2>&1 || bad "delete lq held"
wait_for "j2 loses its reservation" "cond $w2 QuotaReserved message" "LocalQueue held is terminating or missing"
expect_eq "reason" "$(cond "$w2" QuotaReserved reason)" "Misconfigured"
expect_eq "no admission" "$(k get workload "$w2" -o jsonpath='{.status.admission}')" ""
expect_eq "j3 keeps running" "$(k get job j3 -o jsonpath='{.spec.suspend}')" "false"
expect_eq "j3 admitted" "$(cond "$w3" Admitted status)" "True"
job_create j4 held 1
w4=$(wl_of j4)
wait_for "a new one waits the same" "cond $w4 QuotaReserved message" "LocalQueue held is terminating or missing"
expect_eq "j4 suspended" "$(k get job j4 -o jsonpath='{.spec.suspend}')" "true"
k patch lq held --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "release lq held"
wait_for "then it does not exist" "cond $w4 QuotaReserved message" "LocalQueue held doesn't exist"

# a check a ClusterQueue names stays, working, until none does
k delete ac check --wait=false >/dev/null 2>&1 || bad "delete check"
expect_has "check terminating" "$(k get ac check -o jsonpath='{.metadata.deletionTimestamp}')" "T"
expect_eq "still kueue's" "$(k get ac check -o jsonpath='{.metadata.finalizers}')" '["kueue.x-k8s.io/resource-in-use"]'
expect_eq "cq still active" "$(active)" "Ready"
out=$(k patch ac check --type=json -p '[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/late"}]' 2>&1) && bad "a new finalizer on a held check"
expect_has "no new finalizers" "$out" "no new finalizers can be added if the object is being deleted"
# its spec and status may still change (kube-apiserver takes them), but
# Kueue's cache ignores an AdmissionCheck being deleted: the ClusterQueue
# stays active when its controller says it is not
out=$(k patch ac check --type=merge -p '{"spec":{"parameters":{"apiGroup":"example.com","kind":"Params","name":"p"}}}' 2>&1) || bad "spec update of a held check: $out"
expect_eq "its spec changed" "$(k get ac check -o jsonpath='{.spec.parameters.name}')" "p"
k patch ac check --subresource=status --type=merge -p '{"status":{"conditions":[{"type":"Active","status":"False","reason":"Down","message":"down","lastTransitionTime":"2026-01-02T00:00:00Z"}]}}' >/dev/null 2>&1 || bad "deactivate the held check"
expect_eq "its status changed" "$(k get ac check -o jsonpath='{.status.conditions[0].status}')" "False"
sleep 0.3
expect_eq "cq still active (Kueue's cache)" "$(active)" "Ready"
k patch cq cq --type=merge -p '{"spec":{"admissionChecksStrategy":null}}' >/dev/null 2>&1 || bad "cq drops the check"
wait_for "check gone" "k get ac -o name" ""
stop
expect_eq "stop" "$?" "0"

# one a client's finalizer holds: Kueue lets go of its own, the rest stays
start b --db "$tmp/a.db" || exit 1
cat <<'EOF' | k create -f - >/dev/null 2>&1 || bad "create check2"
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata: {name: check2, finalizers: ["example.com/keep"]}
spec: {controllerName: example.com/check}
EOF
wait_for "both" "k get ac check2 -o jsonpath='{.metadata.finalizers}'" '["example.com/keep","kueue.x-k8s.io/resource-in-use"]'
k delete ac check2 --wait=false >/dev/null 2>&1 || bad "delete check2"
wait_for "kueue's off" "k get ac check2 -o jsonpath='{.metadata.finalizers}'" '["example.com/keep"]'
k patch ac check2 --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "release check2"
expect_has "check2 gone" "$(k get ac check2 2>&1)" "NotFound"
stop
expect_eq "stop b" "$?" "0"
finish
