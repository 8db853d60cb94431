#!/bin/sh
# A Workload reactivated while an equivalent one (same queue, priority
# and shape) waits after failing with no fit (BestEffortFIFO) joins it
# untried, and Kueue's workload controller says so on it: QuotaReserved
# False with the failure's reason and "Bypassed scheduling evaluation
# because an equivalent workload recently failed" (workload_controller.go
# resolveGranularUnadmittedQuotaReservedCondition; it kept "The workload
# is deactivated" or PendingEvaluation) (tests/controller/lib.sh).
suite=bypass
. "$(dirname "$0")/lib.sh"

cond() { # WORKLOAD TYPE
	k get workload "$1" -o jsonpath="{.status.conditions[?(@.type==\"$2\")].status}/{.status.conditions[?(@.type==\"$2\")].reason}: {.status.conditions[?(@.type==\"$2\")].message}"
}
wl() { # NAME ACTIVE
	printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: %s, namespace: default}\nspec:\n  active: %s\n  queueName: lq\n  podSets:\n  - name: main\n    count: 1\n    template:\n      spec:\n        restartPolicy: Never\n        containers:\n        - name: c\n          resources: {requests: {cpu: "1"}}\n' "$1" "$2" >"$tmp/$1.yaml"
	k create -f "$tmp/$1.yaml" >/dev/null 2>&1 || bad "create $1"
}

start a --db "$tmp/a.db" || exit 1
cat >"$tmp/queue.yaml" <<'Y'
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{name: cpu, nominalQuota: "1"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq, namespace: default}
spec: {clusterQueue: cq}
Y
k apply -f "$tmp/queue.yaml" >/dev/null 2>&1 || bad "queues"
wl holder true
wait_for "holder admitted" "k get workload holder -o jsonpath='{.status.conditions[?(@.type==\"Admitted\")].status}'" "True"
wl first true
wait_for "first fails" "k get workload first -o jsonpath='{.status.conditions[?(@.type==\"QuotaReserved\")].reason}'" "WaitingForQuota"
wl later false
wait_for "later deactivated" "k get workload later -o jsonpath='{.status.conditions[?(@.type==\"QuotaReserved\")].reason}'" "Deactivated"
k patch workload later --type=merge -p '{"spec":{"active":true}}' >/dev/null 2>&1 || bad "reactivate"
wait_for "bypassed" "cond later QuotaReserved" \
	"False/WaitingForQuota: Bypassed scheduling evaluation because an equivalent workload recently failed"
expect_eq "admitted" "$(cond later Admitted)" "False/NoReservation: The workload has no reservation"
expect_eq "first keeps its own" "$(cond first QuotaReserved)" \
	"False/WaitingForQuota: couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed"
# the holder's end frees the quota and requeues the set-aside ones:
# first (the older) is admitted, later is tried and waits in its own words
k delete workload holder >/dev/null 2>&1 || bad "delete holder"
wait_for "first admitted" "k get workload first -o jsonpath='{.status.conditions[?(@.type==\"Admitted\")].status}'" "True"
wait_for "later tried" "cond later QuotaReserved" \
	"False/WaitingForQuota: couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed"
stop || bad "stop"
finish
