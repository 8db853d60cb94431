#!/bin/sh
# The priority of Workloads created as such, as Kueue's
# WorkloadPriorityClass controller sets it: when the class a Workload's
# spec.priorityClassRef names is created, or its value changes, the
# Workload's spec.priority becomes the value (v1beta1's
# priorityClassName/priorityClassSource too), and the engine schedules
# and preempts with it; a restart does it for every class, as Kueue's
# does (tests/controller/lib.sh).
suite=priority
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
CQ=cluster-queue
k patch cq $CQ --type=merge -p '{"spec":{"preemption":{"withinClusterQueue":"LowerPriority"}}}' >/dev/null 2>&1 || bad "preemption"
# wl NAME CPUS [CLASS]: a v1beta2 Workload of one pod
wl() {
	ref=""
	[ -n "$3" ] && ref="  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: $3}"
	cat <<EOF | k create -f - >/dev/null 2>&1 || bad "create $1"
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: $1
  namespace: default
spec:
  queueName: user-queue
$ref
  podSets:
  - name: main
    count: 1
    template:
      spec:
        restartPolicy: Never
        containers:
        - name: c
          image: busybox
          resources:
            requests:
              cpu: "$2"
EOF
}
prio() { k get workload "$1" -o jsonpath='{.spec.priority}'; }
cond() { k get workload "$1" -o jsonpath="{.status.conditions[?(@.type==\"$2\")].status}"; }
# the whole queue, priority 0: admitted
wl low 9
wait_for "low admitted" "cond low Admitted" "True"
# names a class that does not exist yet: priority 0, waits (no preemption
# of an equal priority)
wl high 9 urgent
expect_eq "no class yet" "$(prio high)" "0"
sleep 0.3
expect_eq "high waits" "$(cond high Admitted)" "False"
# the class appears: the priority is set, and the engine preempts with it
printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata:\n  name: urgent\nvalue: 100\n' |
	k create -f - >/dev/null 2>&1 || bad "create urgent"
wait_for "priority set" "prio high" "100"
wait_for "high admitted" "cond high Admitted" "True"
expect_eq "low preempted" "$(cond low Preempted)" "True"
expect_eq "unrelated unchanged" "$(prio low)" "0"
# a v1beta1 Workload naming the class, created after it: kept as created
cat <<'EOF' | k create -f - >/dev/null 2>&1 || bad "create v1beta1"
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata:
  name: old
  namespace: default
spec:
  queueName: user-queue
  priority: 7
  priorityClassName: urgent
  priorityClassSource: kueue.x-k8s.io/workloadpriorityclass
  podSets:
  - name: main
    count: 1
    template:
      spec:
        containers:
        - name: c
          image: busybox
EOF
expect_eq "created after the class" "$(prio old)" "7"
# the value changes: every Workload naming the class follows
k patch workloadpriorityclass urgent --type=merge -p '{"value":250}' >/dev/null 2>&1 || bad "patch urgent"
wait_for "high follows" "prio high" "250"
wait_for "v1beta1 follows" "k get workloads.v1beta1.kueue.x-k8s.io old -o jsonpath='{.spec.priority}'" "250"
expect_eq "low still 0" "$(prio low)" "0"
# a change elsewhere in the class moves nothing
rv=$(k get workload high -o jsonpath='{.metadata.resourceVersion}')
k label workloadpriorityclass urgent tier=gold >/dev/null 2>&1 || bad "label"
expect_eq "label only" "$(k get workload high -o jsonpath='{.metadata.resourceVersion}')" "$rv"
# created naming a class that exists: as created, until a restart
# (Kueue's controller, started, sees every class as created)
wl late 1 urgent
expect_eq "late as created" "$(prio late)" "0"
stop || bad "stop"
start b --db "$tmp/a.db" || exit 1
expect_eq "late after restart" "$(prio late)" "250"
expect_eq "high after restart" "$(prio high)" "250"
expect_eq "low after restart" "$(prio low)" "0"
stop || bad "stop b"
finish
