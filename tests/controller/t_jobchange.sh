#!/bin/sh
# A Job that changes while Kueue manages it: its Workload follows it as
# Kueue's Job reconciler keeps the two matching (jobframework
# reconciler.go ensureOneWorkload, EquivalentToWorkload).  A waiting
# Job's new parallelism, pod template or max-exec-time label updates the
# same Workload (name and uid kept, event UpdatedWorkload); a running
# Job's new parallelism stops the Job, deletes its Workload and makes a
# new one of the same name (Stopped, DeletedWorkload, CreatedWorkload).
# A new priority-class label gives the Workload that class, a new queue
# name of a suspended Job moves it; the Job webhook refuses a new queue
# name on a running Job and the removal of a priority class.
suite=jobchange
. "$(dirname "$0")/lib.sh"

# job1 of the fixtures as NAME with parallelism and completions N
job() {
	sed "s/name: job1/name: $1/; s/parallelism: 3/parallelism: $2/; s/completions: 3/completions: $2/" \
		"$EX/job1.yaml"
}
wl_of() {
	k get workloads -o jsonpath="{.items[?(@.metadata.ownerReferences[0].name==\"$1\")].metadata.name}"
}
reasons() {
	k get events --field-selector "involvedObject.kind=Job,involvedObject.name=$1" \
		-o jsonpath='{range .items[*]}{.reason}={.message}{"\n"}{end}'
}

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"

# 12 pods of 1 CPU wait on 9 CPU; 5 fit
job big 12 | k create -f - >/dev/null 2>&1 || bad "create big"
wl=$(wl_of big)
[ -n "$wl" ] || bad "big has no workload"
uid=$(k get workload "$wl" -o jsonpath='{.metadata.uid}')
expect_eq "big waits" "$(k get job big -o jsonpath='{.spec.suspend}')" "true"
expect_eq "count 12" "$(k get workload "$wl" -o jsonpath='{.spec.podSets[0].count}')" "12"
k patch job big --type=merge -p '{"spec":{"parallelism":5}}' >/dev/null 2>&1 || bad "patch big"
expect_eq "same name" "$(wl_of big)" "$wl"
expect_eq "same uid" "$(k get workload "$wl" -o jsonpath='{.metadata.uid}')" "$uid"
expect_eq "count 5" "$(k get workload "$wl" -o jsonpath='{.spec.podSets[0].count}')" "5"
expect_eq "generation 2" "$(k get workload "$wl" -o jsonpath='{.metadata.generation}')" "2"
wait_for "big runs" "k get job big -o jsonpath='{.spec.suspend}'" "false"
expect_has "updated event" "$(reasons big)" "UpdatedWorkload=Updated not matching Workload for suspended job: default/$wl"

# running: 3 pods instead of 5 -> stopped, remade, admitted again
k patch job big --type=merge -p '{"spec":{"parallelism":3}}' >/dev/null 2>&1 || bad "patch running big"
expect_eq "remade name" "$(wl_of big)" "$wl"
uid2=$(k get workload "$wl" -o jsonpath='{.metadata.uid}')
[ -n "$uid2" ] && [ "$uid2" != "$uid" ] || bad "remade uid: '$uid2' (was '$uid')"
expect_eq "count 3" "$(k get workload "$wl" -o jsonpath='{.spec.podSets[0].count}')" "3"
ev=$(reasons big)
expect_has "stopped event" "$ev" "Stopped=No matching Workload; restoring pod templates according to existent Workload"
expect_has "deleted event" "$ev" "DeletedWorkload=Deleted not matching Workload: default/$wl"
expect_has "created event" "$ev" "CreatedWorkload=Created Workload: default/$wl"
wait_for "big runs again" "k get job big -o jsonpath='{.spec.suspend}'" "false"
# running, and the new Workload does not fit: suspended, waits
k patch job big --type=merge -p '{"spec":{"parallelism":10}}' >/dev/null 2>&1 || bad "patch to 10"
expect_eq "big suspended" "$(k get job big -o jsonpath='{.spec.suspend}')" "true"
expect_eq "no start time" "$(k get job big -o jsonpath='{.status.startTime}')" ""
expect_eq "count 10" "$(k get workload "$wl" -o jsonpath='{.spec.podSets[0].count}')" "10"
uid3=$(k get workload "$wl" -o jsonpath='{.metadata.uid}')
wait_for "10 wait" "k get workload $wl -o jsonpath='{.status.conditions[?(@.type==\"QuotaReserved\")].status}'" "False"
expect_eq "one workload" "$(k get workloads -o name | wc -l | tr -d ' ')" "1"
expect_eq "no quota held" "$(k get clusterqueue cluster-queue -o jsonpath='{.status.reservingWorkloads}')" "0"

# a waiting Job's pod template and max-exec-time label
k patch job big --type=json -p '[{"op":"replace","path":"/spec/template/spec/containers/0/resources/requests/cpu","value":"2"}]' >/dev/null 2>&1 || bad "patch cpu"
expect_eq "cpu 2" "$(k get workload "$wl" -o jsonpath='{.spec.podSets[0].template.spec.containers[0].resources.requests.cpu}')" "2"
k label job big kueue.x-k8s.io/max-exec-time-seconds=600 >/dev/null 2>&1 || bad "label max exec"
expect_eq "max exec" "$(k get workload "$wl" -o jsonpath='{.spec.maximumExecutionTimeSeconds}')" "600"
expect_eq "uid kept" "$(k get workload "$wl" -o jsonpath='{.metadata.uid}')" "$uid3"

# queue name: follows a suspended Job, refused on a running one
cat <<YAML | k create -f - >/dev/null 2>&1 || bad "create queues"
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {namespace: default, name: other-queue}
spec: {clusterQueue: cluster-queue}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: low}
value: 10
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: high}
value: 1000
YAML
k label job big --overwrite kueue.x-k8s.io/queue-name=other-queue >/dev/null 2>&1 || bad "relabel queue"
expect_eq "queue follows" "$(k get workload "$wl" -o jsonpath='{.spec.queueName}')" "other-queue"
job small 1 | k create -f - >/dev/null 2>&1 || bad "create small"
wait_for "small runs" "k get job small -o jsonpath='{.spec.suspend}'" "false"
out=$(k label job small --overwrite kueue.x-k8s.io/queue-name=other-queue 2>&1) && bad "running relabel accepted"
expect_has "queue immutable" "$out" 'denied the request: metadata.labels[kueue.x-k8s.io/queue-name]: Invalid value: "other-queue": field is immutable'
out=$(k label job small kueue.x-k8s.io/priority-class=high 2>&1) && bad "class added to running"
expect_has "class not added" "$out" 'Invalid value: "high": WorkloadPriorityClass cannot be added to a non-suspended workload'

# priority class: a waiting Job's new class is its Workload's
k label job big kueue.x-k8s.io/priority-class=low >/dev/null 2>&1 || bad "label low"
expect_eq "priority low" "$(k get workload "$wl" -o jsonpath='{.spec.priority}/{.spec.priorityClassRef.name}')" "10/low"
k label job big --overwrite kueue.x-k8s.io/priority-class=high >/dev/null 2>&1 || bad "label high"
expect_eq "priority high" "$(k get workload "$wl" -o jsonpath='{.spec.priority}/{.spec.priorityClassRef.name}')" "1000/high"
expect_has "priority event" "$(reasons big)" "UpdatedWorkload=Updated workload priority class: default/$wl"
out=$(k label job big kueue.x-k8s.io/priority-class- 2>&1) && bad "class removed"
expect_has "class kept" "$out" 'Invalid value: "": WorkloadPriorityClass cannot be removed from a workload'
# a Job whose template has what the Workload CRD defaults (a port's
# protocol) still matches its defaulted Workload: a new label changes
# nothing
job port 1 | sed 's|^        image: busybox|&\n        ports: [{containerPort: 8080}]|' |
	k create -f - >/dev/null 2>&1 || bad "create port"
wait_for "port runs" "k get job port -o jsonpath='{.spec.suspend}'" "false"
pwl=$(wl_of port)
puid=$(k get workload "$pwl" -o jsonpath='{.metadata.uid}')
k label job port team=a >/dev/null 2>&1 || bad "label port"
expect_eq "port keeps its workload" "$(k get workload "$pwl" -o jsonpath='{.metadata.uid}') $(k get job port -o jsonpath='{.spec.suspend}')" "$puid false"
expect_eq "port not stopped" "$(reasons port)" "CreatedWorkload=Created Workload: default/$pwl
Started=Admitted by clusterQueue cluster-queue"
# the webhook's create checks apply to the new Job; the default queue
# cannot be dropped; a partially admitted running Job keeps its parallelism
out=$(k label job big --overwrite kueue.x-k8s.io/max-exec-time-seconds=abc 2>&1) && bad "abc accepted on update"
expect_has "abc refused" "$out" 'denied the request: metadata.labels[kueue.x-k8s.io/max-exec-time-seconds]: Invalid value: "abc": strconv.Atoi: parsing "abc": invalid syntax'
cat <<YAML | k create -f - >/dev/null 2>&1 || bad "create default queue"
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {namespace: default, name: default}
spec: {clusterQueue: cluster-queue}
YAML
out=$(k label job big kueue.x-k8s.io/queue-name- 2>&1) && bad "queue name dropped"
expect_has "default queue" "$out" 'Invalid value: "": queue-name must not be empty in namespace with default queue'
k annotate job small kueue.x-k8s.io/job-min-parallelism=1 >/dev/null 2>&1 || bad "annotate small"
out=$(k patch job small --type=merge -p '{"spec":{"parallelism":2}}' 2>&1) && bad "partial parallelism changed"
expect_has "partial parallelism" "$out" 'spec.parallelism: Forbidden: cannot change when partial admission is enabled and the job is not suspended'
expect_eq "one workload each" "$(k get workloads -o name | wc -l | tr -d ' ')" "3"
stop
expect_eq "stop" "$?" "0"
# a restart serves the Workloads as they were left
start b --db "$tmp/a.db" || exit 1
expect_eq "after restart" "$(k get workload "$wl" -o jsonpath='{.metadata.uid} {.spec.podSets[0].count} {.spec.queueName} {.spec.priority}')" "$uid3 10 other-queue 1000"
k patch job big --type=merge -p '{"spec":{"parallelism":3}}' >/dev/null 2>&1 || bad "patch after restart"
wait_for "big runs after restart" "k get job big -o jsonpath='{.spec.suspend}'" "false"
expect_eq "same workload" "$(k get workload "$wl" -o jsonpath='{.metadata.uid} {.spec.podSets[0].count}')" "$uid3 3"
# restored from its stored (defaulted) form, port's Workload still matches
k label job port --overwrite team=b >/dev/null 2>&1 || bad "relabel port"
expect_eq "port keeps its workload after restart" "$(k get workload "$pwl" -o jsonpath='{.metadata.uid}') $(k get job port -o jsonpath='{.spec.suspend}')" "$puid false"
stop
expect_eq "stop b" "$?" "0"
finish
