#!/bin/sh
# Workload spec.active (Kueue: false evicts with reason Deactivated and
# holds the workload, the Job suspended; true queues it again, Requeued
# Reactivated) and the two Kueue versions (an object written in one reads
# correctly in the other); a patch of spec.active answers the Workload
# it makes (spec.active changed, a new generation; it answered the old
# one and kubectl said "patched (no change)"), a dry run too
# (tests/controller/lib.sh).
suite=active
. "$(dirname "$0")/lib.sh"

cond() { # WORKLOAD TYPE FIELD
	k get workload "$1" -o jsonpath="{.status.conditions[?(@.type==\"$2\")].$3}"
}

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
for n in 1 4; do k create -f "$EX/job$n.yaml" >/dev/null 2>&1 || bad "create job$n"; done
wait_for "job1 runs" "k get job job1 -o jsonpath='{.spec.suspend}'" "false"
wl1=$(k get workloads -o jsonpath='{.items[?(@.metadata.ownerReferences[0].name=="job1")].metadata.name}')
gen=$(k get workload "$wl1" -o jsonpath='{.metadata.generation}')
expect_eq "dry run answer" \
	"$(k patch workload "$wl1" --type=merge -p '{"spec":{"active":false}}' --dry-run=server -o jsonpath='{.spec.active} {.metadata.generation}' 2>&1)" "false $((gen + 1))"
expect_eq "dry run changes nothing" "$(k get workload "$wl1" -o jsonpath='{.spec.active} {.metadata.generation}')" "true $gen"
out=$(k patch workload "$wl1" --type=merge -p '{"spec":{"active":false}}' 2>&1)
expect_eq "deactivate" "$out" "workload.kueue.x-k8s.io/$wl1 patched"
expect_eq "answer kept" "$(k get workload "$wl1" -o jsonpath='{.spec.active} {.metadata.generation}')" "false $((gen + 1))"
out=$(k patch workload "$wl1" --type=merge -p '{"spec":{"active":false}}' 2>&1)
expect_eq "same value" "$out" "workload.kueue.x-k8s.io/$wl1 patched (no change)"
wait_for "job1 suspended" "k get job job1 -o jsonpath='{.spec.suspend}'" "true"
expect_eq "evicted reason" "$(cond "$wl1" Evicted reason)" "Deactivated"
expect_eq "evicted message" "$(cond "$wl1" Evicted message)" "The workload is deactivated"
expect_eq "requeued" "$(cond "$wl1" Requeued status)/$(cond "$wl1" Requeued reason)" "False/Deactivated"
expect_eq "spec.active" "$(k get workload "$wl1" -o jsonpath='{.spec.active}')" "false"
expect_eq "no reservation" "$(cond "$wl1" QuotaReserved status)" "False"
sleep 0.3
expect_eq "stays out" "$(cond "$wl1" QuotaReserved status)" "False"
out=$(k patch workload "$wl1" --type=json -p '[{"op":"replace","path":"/spec/active","value":true}]' 2>&1)
expect_has "reactivate" "$out" "patched"
wait_for "job1 runs again" "k get job job1 -o jsonpath='{.spec.suspend}'" "false"
expect_eq "reactivated" "$(cond "$wl1" Requeued status)/$(cond "$wl1" Requeued reason)" "True/Reactivated"
# conversion: written in v1beta1, read in both (stored in v1beta2)
cat >"$tmp/v1.yaml" <<'YAML'
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: old-style
spec:
  cohort: shared
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: ["cpu"]
    flavors:
    - name: default-flavor
      resources:
      - name: cpu
        nominalQuota: 1
YAML
k create -f "$tmp/v1.yaml" >/dev/null 2>&1 || bad "create v1beta1"
B1=clusterqueues.v1beta1.kueue.x-k8s.io
B2=clusterqueues.v1beta2.kueue.x-k8s.io
expect_eq "v1beta2 cohortName" "$(k get $B2 old-style -o jsonpath='{.spec.cohortName}/{.spec.cohort}')" "shared/"
expect_eq "v1beta1 cohort" "$(k get $B1 old-style -o jsonpath='{.spec.cohort}/{.spec.cohortName}')" "shared/"
expect_eq "v1beta1 apiVersion" "$(k get $B1 old-style -o jsonpath='{.apiVersion}')" "kueue.x-k8s.io/v1beta1"
expect_has "v1beta1 table cohort" "$(k get $B1 old-style | sed 's/   */  /g')" "old-style  shared"
expect_has "v1beta2 table cohort" "$(k get $B2 old-style | sed 's/   */  /g')" "old-style  shared"
# a merge patch in v1beta1 terms lands on the v1beta2 field
k patch $B1 old-style --type=merge -p '{"spec":{"cohort":"other"}}' >/dev/null 2>&1 || bad "patch v1beta1"
expect_eq "patched via v1beta1" "$(k get $B2 old-style -o jsonpath='{.spec.cohortName}')" "other"
cat >"$tmp/wpc.yaml" <<'YAML'
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata:
  name: high
value: 1000
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: direct
  namespace: default
spec:
  queueName: user-queue
  priorityClassRef:
    group: kueue.x-k8s.io
    kind: WorkloadPriorityClass
    name: high
  podSets:
  - name: main
    count: 1
    template:
      spec:
        containers:
        - name: c
          image: busybox
          resources:
            requests:
              cpu: "1"
YAML
k create -f "$tmp/wpc.yaml" >/dev/null 2>&1 || bad "create workload v1beta2"
expect_eq "v1beta1 priorityClass" "$(k get workloads.v1beta1.kueue.x-k8s.io direct -o jsonpath='{.spec.priorityClassName}/{.spec.priorityClassSource}')" "high/kueue.x-k8s.io/workloadpriorityclass"
expect_eq "v1beta2 priorityClassRef" "$(k get workloads.v1beta2.kueue.x-k8s.io direct -o jsonpath='{.spec.priorityClassRef.name}')" "high"
stop
finish
