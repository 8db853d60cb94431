#!/bin/sh
# CRD defaults, as kube-apiserver fills them from the structural schema:
# a ClusterQueue, LocalQueue and Cohort created without the defaulted
# fields are served with them (either version), values set are kept, a
# body that leaves them out again changes nothing, an object stored
# without them gets them when read back after a restart, and the engine
# admits as before (tests/controller/lib.sh).
suite=defaults
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
CQ=cluster-queue
cq() { k get cq $CQ -o jsonpath="$1"; }
expect_eq "queueingStrategy" "$(cq '{.spec.queueingStrategy}')" "BestEffortFIFO"
expect_eq "stopPolicy" "$(cq '{.spec.stopPolicy}')" "None"
expect_eq "preemption" "$(cq '{.spec.preemption.withinClusterQueue}/{.spec.preemption.reclaimWithinCohort}/{.spec.preemption.borrowWithinCohort.policy}')" "Never/Never/Never"
expect_eq "flavorFungibility" "$(cq '{.spec.flavorFungibility.whenCanBorrow}/{.spec.flavorFungibility.whenCanPreempt}')" "MayStopSearch/TryNextFlavor"
expect_eq "no fairSharing" "$(cq '{.spec.fairSharing}')" ""
expect_eq "v1beta1" "$(k get clusterqueues.v1beta1.kueue.x-k8s.io $CQ -o jsonpath='{.spec.queueingStrategy}/{.spec.preemption.borrowWithinCohort.policy}')" "BestEffortFIFO/Never"
expect_eq "lq stopPolicy" "$(k get localqueue user-queue -o jsonpath='{.spec.stopPolicy}')" "None"
expect_has "wide column" "$(k get cq -o wide)" "BestEffortFIFO"
# set values stay; a defaulted object inside an object set
cat >"$tmp/more.yaml" <<'EOF'
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata:
  name: co
spec:
  fairSharing: {}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: strict
spec:
  cohort: co
  queueingStrategy: StrictFIFO
  preemption:
    withinClusterQueue: LowerPriority
  resourceGroups: []
EOF
k create -f "$tmp/more.yaml" >/dev/null 2>&1 || bad "create more"
expect_eq "cohort weight" "$(k get cohort co -o jsonpath='{.spec.fairSharing.weight}')" "1"
expect_eq "set kept" "$(k get cq strict -o jsonpath='{.spec.queueingStrategy}/{.spec.preemption.withinClusterQueue}/{.spec.preemption.reclaimWithinCohort}')" "StrictFIFO/LowerPriority/Never"
# a body without the defaults changes nothing (no generation, no write)
rv=$(cq '{.metadata.resourceVersion}')
k replace -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "replace"
k apply -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "apply"
k apply -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "apply again"
expect_eq "generation" "$(cq '{.metadata.generation}')" "1"
expect_eq "replace kept defaults" "$(cq '{.spec.queueingStrategy}')" "BestEffortFIFO"
# the engine admits as before
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1"
wait_for "admitted" "k get job job1 -o jsonpath='{.spec.suspend}'" "false"
stop || bad "stop"
# an object stored without its defaults gets them when read back
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$tmp/a.db" "UPDATE objects SET json=json_remove(json,'\$.spec.queueingStrategy','\$.spec.preemption') WHERE name='$CQ'" ||
		bad "sqlite3"
	start b --db "$tmp/a.db" || exit 1
	expect_eq "read back" "$(cq '{.spec.queueingStrategy}/{.spec.preemption.withinClusterQueue}')" "BestEffortFIFO/Never"
	expect_eq "still admitted" "$(k get job job1 -o jsonpath='{.spec.suspend}')" "false"
	stop || bad "stop b"
fi
finish
