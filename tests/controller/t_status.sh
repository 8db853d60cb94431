#!/bin/sh
# Queue status in watches: `kubectl get clusterqueues -w` and `kubectl
# get localqueues -w` show the pending, reserving and admitted counts and
# the flavour usage (both kinds) change as Jobs are admitted and finish, a
# ClusterQueue's Active condition follows its stopPolicy, a LocalQueue's
# its own and its ClusterQueue's; a queue is
# written only when its status changes, and the last event is what a GET
# answers, resourceVersion included (tests/controller/lib.sh); a Job
# waiting untried behind one of its shape has a Workload with no status.
suite=status
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
CQ=cluster-queue
CQF='{.metadata.resourceVersion} {.status.pendingWorkloads}/{.status.reservingWorkloads}/{.status.admittedWorkloads} {.status.flavorsUsage[0].resources[0].total}{"\n"}'
LQF='{.metadata.resourceVersion} {.status.pendingWorkloads}/{.status.reservingWorkloads}/{.status.admittedWorkloads}{"\n"}'
wait_for "counted" "k get cq $CQ -o jsonpath='{.status.pendingWorkloads}'" "0"
k get clusterqueues -w -o jsonpath="$CQF" >"$tmp/cq.out" 2>&1 &
pids="$pids $!"
k get localqueues -w -o jsonpath="$LQF" >"$tmp/lq.out" 2>&1 &
pids="$pids $!"
wait_for "watches open" "wc -l <'$tmp/cq.out' | tr -d ' '; wc -l <'$tmp/lq.out' | tr -d ' '" "1
1"
# each Job takes 3 of the 9 CPUs: three admitted, the fourth waits
for n in 1 2 3 4; do
	k create -f "$EX/job$n.yaml" >/dev/null 2>&1 || bad "create job$n"
done
last() { tail -1 "$tmp/$1.out" | cut -d' ' -f2-; }
wait_for "cq admitted" "last cq" "1/3/3 9"
wait_for "lq admitted" "last lq" "1/3/3"
lqu() { k get localqueue user-queue -o jsonpath="{range .status.$1[*]}{.name}:{range .resources[*]}{.name}={.total} {end}{end}"; }
expect_eq "lq usage" "$(lqu flavorsUsage)" "default-flavor:cpu=9 memory=1800Mi "
expect_eq "lq reservation" "$(lqu flavorsReservation)" "default-flavor:cpu=9 memory=1800Mi "
# a fifth of job4's shape joins the set-aside one untried: no scheduling
# cycle wrote it a status, so it has none (Kueue's types omit an empty one)
sed 's/^  name: job4/  name: job5/' "$EX/job4.yaml" >"$tmp/job5.yaml"
k create -f "$tmp/job5.yaml" >/dev/null 2>&1 || bad "create job5"
wait_for "cq job5 pending" "last cq" "2/3/3 9"
wlof() { k get workloads -o jsonpath="{range .items[?(@.metadata.ownerReferences[0].name=='$1')]}{.status}{end}"; }
expect_eq "untried has no status" "$(wlof job5)" ""
expect_has "tried has conditions" "$(wlof job4)" "WaitingForQuota"
k delete job job5 >/dev/null 2>&1 || bad "delete job5"
wait_for "cq job5 gone" "last cq" "1/3/3 9"
# a finished Job frees its quota: the fourth is admitted
k delete job job1 >/dev/null 2>&1 || bad "delete job1"
wait_for "cq after finish" "last cq" "0/3/3 9"
wait_for "lq after finish" "last lq" "0/3/3"
k delete job job2 job3 job4 >/dev/null 2>&1 || bad "delete jobs"
wait_for "cq empty" "last cq" "0/0/0 0"
wait_for "lq empty" "last lq" "0/0/0"
expect_eq "lq usage freed" "$(lqu flavorsUsage)" "default-flavor:cpu=0 memory=0 "
# written on a change only: no event repeats the status before it
expect_eq "cq no repeats" "$(cut -d' ' -f2- "$tmp/cq.out" | uniq -d)" ""
expect_eq "lq no repeats" "$(cut -d' ' -f2- "$tmp/lq.out" | uniq -d)" ""
# the last event is the object a GET answers
expect_eq "cq get" "$(k get cq $CQ -o jsonpath="$CQF")" "$(tail -1 "$tmp/cq.out")"
expect_eq "lq get" "$(k get localqueue user-queue -o jsonpath="$LQF")" "$(tail -1 "$tmp/lq.out")"
# the Active condition: Ready, then Stopped on hold, with the time of the
# change, then Ready again
act() { k get cq $CQ -o jsonpath='{.status.conditions[0].type}/{.status.conditions[0].status}/{.status.conditions[0].reason}/{.status.conditions[0].observedGeneration}'; }
expect_eq "active" "$(act)" "Active/True/Ready/1"
t1=$(k get cq $CQ -o jsonpath='{.status.conditions[0].lastTransitionTime}')
sleep 1.1
k patch cq $CQ --type=merge -p '{"spec":{"stopPolicy":"Hold"}}' >/dev/null 2>&1 || bad "hold"
wait_for "stopped" "act" "Active/False/Stopped/2"
t2=$(k get cq $CQ -o jsonpath='{.status.conditions[0].lastTransitionTime}')
[ "$t1" != "$t2" ] || bad "transition time kept: $t1"
k patch cq $CQ --type=merge -p '{"spec":{"stopPolicy":"None"}}' >/dev/null 2>&1 || bad "resume"
wait_for "ready again" "act" "Active/True/Ready/3"
# a LocalQueue's Active condition follows its stopPolicy and its
# ClusterQueue (Kueue: localqueue_controller.go)
lqact() { k get localqueue user-queue -o jsonpath='{.status.conditions[0].type}/{.status.conditions[0].status}/{.status.conditions[0].reason}/{.status.conditions[0].message}/{.status.conditions[0].observedGeneration}'; }
expect_eq "lq active" "$(lqact)" "Active/True/Ready/Can submit new workloads to localQueue/1"
k patch cq $CQ --type=merge -p '{"spec":{"stopPolicy":"Hold"}}' >/dev/null 2>&1 || bad "hold again"
wait_for "lq cq inactive" "lqact" "Active/False/ClusterQueueIsInactive/Can't submit new workloads to clusterQueue/1"
k patch cq $CQ --type=merge -p '{"spec":{"stopPolicy":"None"}}' >/dev/null 2>&1 || bad "resume again"
wait_for "lq ready again" "lqact" "Active/True/Ready/Can submit new workloads to localQueue/1"
k patch localqueue user-queue --type=merge -p '{"spec":{"stopPolicy":"Hold"}}' >/dev/null 2>&1 || bad "lq hold"
wait_for "lq stopped" "lqact" "Active/False/Stopped/LocalQueue is stopped/2"
# a stopped LocalQueue counts no pending workload (Kueue: localqueue
# controller updateStatusIfChanged reads PendingWorkloads only without a
# stopPolicy); its Job waits and is admitted once it is resumed
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1 again"
wait_for "job1 waits" "k get workloads -o jsonpath='{.items[0].status.conditions[0].reason}'" "Suspended"
expect_eq "stopped lq pending" "$(k get localqueue user-queue -o jsonpath='{.status.pendingWorkloads}')" "0"
k patch localqueue user-queue --type=merge -p '{"spec":{"stopPolicy":"None"}}' >/dev/null 2>&1 || bad "lq resume"
wait_for "lq resumed" "lqact" "Active/True/Ready/Can submit new workloads to localQueue/3"
wait_for "job1 admitted after resume" "last lq" "0/1/1"
k delete job job1 >/dev/null 2>&1 || bad "delete job1 again"
wait_for "lq empty again" "last lq" "0/0/0"
# the table a watch prints carries the counts too
out=$(timeout 2 kubectl $S get clusterqueues -w 2>/dev/null | head -2)
expect_has "table" "$out" "$CQ"
k delete cq $CQ >/dev/null 2>&1 || bad "delete cq"
wait_for "lq without cq" "lqact" "Active/False/ClusterQueueDoesNotExist/Can't submit new workloads to clusterQueue/3"
stop || bad "stop"
expect_eq "no fairSharing without the Configuration" "$(k get cq $CQ -o jsonpath='{.status.fairSharing}' 2>/dev/null)" ""
# fair sharing enabled by the policy's Configuration: ClusterQueues and
# Cohorts carry status.fairSharing.weightedShare, Kueue's dominant
# resource share: team-a borrowing 2 of the 8 CPUs its cohort can lend
# weighs 2 * 1000 / 8 = 250; the lender and the root cohort 0
mkdir "$tmp/fs"
cat >"$tmp/fs/policy.yaml" <<'EOF'
apiVersion: config.kueue.x-k8s.io/v1beta1
kind: Configuration
fairSharing:
  enable: true
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: default-flavor
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata:
  name: co
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  namespace: default
  name: user-queue
spec:
  clusterQueue: team-a
EOF
# two queues of 4 CPUs in the cohort; only team-a admits from default
for q in team-a team-b; do
	sel=""
	[ $q = team-a ] && sel="  namespaceSelector: {}"
	cat >"$tmp/fs/$q.yaml" <<EOF
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: $q
spec:
  cohortName: co
$sel
  resourceGroups:
  - coveredResources: ["cpu", "memory"]
    flavors:
    - name: default-flavor
      resources:
      - {name: cpu, nominalQuota: 4}
      - {name: memory, nominalQuota: 36Gi}
EOF
done
start b --db "$tmp/b.db" --manifests "$tmp/fs" || exit 1
ws() { k get "$1" -o jsonpath='{.status.fairSharing.weightedShare}'; }
wait_for "share idle" "ws cq/team-a" "0"
expect_eq "share idle cohort" "$(ws cohort/co)" "0"
sed 's/^  name: job1/  name: job1b/' "$EX/job1.yaml" >"$tmp/job1b.yaml"
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1 (fs)"
k create -f "$tmp/job1b.yaml" >/dev/null 2>&1 || bad "create job1b (fs)"
wait_for "share borrowing" "ws cq/team-a" "250"
expect_eq "share lender" "$(ws cq/team-b)" "0"
expect_eq "share root cohort" "$(ws cohort/co)" "0"
k delete job job1b >/dev/null 2>&1 || bad "delete job1b"
wait_for "share back" "ws cq/team-a" "0"
stop || bad "stop b"
# the Configuration is kept with the state: a restart without --manifests
# still enforces fair sharing
start c --db "$tmp/b.db" || exit 1
wait_for "share after restart" "ws cq/team-a" "0"
stop || bad "stop c"
# the ConfigMap Kueue's manifests install, fair sharing turned off: the
# field goes away
mkdir "$tmp/fs-off"
cat >"$tmp/fs-off/kueue-manager-config.yaml" <<'EOF'
apiVersion: v1
kind: ConfigMap
metadata:
  name: kueue-manager-config
  namespace: kueue-system
data:
  controller_manager_config.yaml: |
    apiVersion: config.kueue.x-k8s.io/v1beta1
    kind: Configuration
    fairSharing:
      enable: false
EOF
start d --db "$tmp/b.db" --manifests "$tmp/fs-off" || exit 1
wait_for "share off" "k get cq team-a -o jsonpath='{.status.fairSharing}'" ""
expect_eq "no warning for the ConfigMap" "$(grep -c 'not served' "$tmp/d.log")" "0"
stop || bad "stop d"
finish
