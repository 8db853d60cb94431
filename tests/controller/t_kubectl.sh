#!/bin/sh
# kubectl against the controller: create -f, get, a Job becoming a
# Kueue-named Workload, suspend following admission, delete job freeing
# quota, describe with conditions and events, errors as Status, and the
# state surviving kill -9 (tests/controller/lib.sh).
suite=kubectl
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
# the logged URL names the port the kernel chose for --listen HOST:0 (it
# said http://127.0.0.1:0, which reaches nothing)
expect_has "logged URL" "$(cat "$tmp/a.log")" "listening on http://127.0.0.1:$PORT port $PORT"
out=$(k create -f "$EX/setup.yaml" 2>&1)
expect_has "create setup" "$out" "clusterqueue.kueue.x-k8s.io/cluster-queue created"
expect_eq "get cq" "$(k get clusterqueues -o name)" "clusterqueue.kueue.x-k8s.io/cluster-queue"
for n in 1 2 3 4; do k create -f "$EX/job$n.yaml" >/dev/null 2>&1 || bad "create job$n"; done
# Kueue: GetWorkloadNameForOwnerWithGVK (job-<name>-<sha1 prefix>)
wl1=$(k get workloads -o jsonpath='{.items[?(@.metadata.ownerReferences[0].name=="job1")].metadata.name}')
case "$wl1" in job-job1-?????) ok ;; *) bad "workload name '$wl1'" ;; esac
expect_eq "workloads -A" "$(k get workloads -A --no-headers 2>&1 | wc -l)" "4"
wait_for "job1 runs" "k get job job1 -o jsonpath='{.spec.suspend}'" "false"
wait_for "job4 waits" "k get job job4 -o jsonpath='{.spec.suspend}'" "true"
out=$(k describe workload "$wl1")
expect_has "describe conditions" "$out" "Type:                  Admitted"
expect_has "describe events" "$out" "QuotaReserved"
# deleting a Job deletes its Workload (kube's garbage collector, the
# Job owns it); the waiting one gets the quota
k delete job job1 >/dev/null 2>&1 || bad "delete job1"
wait_for "job4 admitted" "k get job job4 -o jsonpath='{.spec.suspend}'" "false"
expect_has "wl1 gone" "$(k get workload "$wl1" 2>&1)" "NotFound"
# quotaflow finish: a Job by name, then a Workload by name
out=$("$QF" finish default/job2 --server "http://127.0.0.1:$PORT")
expect_eq "finish job" "$out" "job default/job2 complete"
# as kube's Job controller leaves a Job whose pods succeeded: COMPLETIONS
# 3/3 and a completionTime (it said 0/3, and DURATION kept counting)
expect_eq "finished job's completions" "$(k get job job2 --no-headers | awk '{print $2, $3}')" "Complete 3/3"
expect_eq "finished job's completionTime" "$(k get job job2 -o jsonpath='{.status.completionTime}' | grep -c '^20..-..-..T..:..:..Z$')" "1"
wl3=$(k get workloads -o jsonpath='{.items[?(@.metadata.ownerReferences[0].name=="job3")].metadata.name}')
out=$("$QF" finish "default/$wl3" --server "http://127.0.0.1:$PORT")
expect_eq "finish workload" "$out" "workload default/$wl3 finished"
"$QF" finish default/nope --server "http://127.0.0.1:$PORT" 2>"$tmp/finish.err"
expect_eq "finish missing" "$?" "1"
wait_for "wl3 finished" "k get workload $wl3 -o jsonpath='{.status.conditions[?(@.type==\"Finished\")].status}'" "True"
# the demo run time: finished and the Job complete once it ran out
sed 's/^  name: job1/  name: demo\n  annotations:\n    quotaflow.dev\/runtime: 300ms/' \
	"$EX/job1.yaml" >"$tmp/demo.yaml"
k create -f "$tmp/demo.yaml" >/dev/null 2>&1 || bad "create demo"
wait_for "demo complete" "k get job demo -o jsonpath='{.status.conditions[?(@.type==\"Complete\")].status}'" "True"
# errors are metav1 Status with the API server's codes
out=$(k get clusterqueue nope 2>&1)
expect_has "404" "$out" 'clusterqueues.kueue.x-k8s.io "nope" not found'
out=$(k create -f "$EX/setup.yaml" 2>&1)
expect_has "409" "$out" "AlreadyExists"
printf '{"kind":' >"$tmp/bad.json"
out=$(k create --raw /apis/batch/v1/namespaces/default/jobs -f "$tmp/bad.json" 2>&1)
expect_has "malformed JSON" "$out" "malformed JSON body"
# kubectl explain reads the Kueue kinds' schemas from /openapi/v3, by
# short name too; the index names each document by a hash of its content
out=$(k explain clusterqueue.spec.resourceGroups 2>&1)
expect_has "explain fields" "$out" "coveredResources"
expect_has "explain flavors" "$out" "flavors	<[]Object> -required-"
expect_has "explain metadata" "$(k explain cq.metadata 2>&1)" "labels	<map[string]string>"
expect_has "explain kind" "$(k explain localqueue 2>&1)" "namespaced queue"
idx1=$(k get --raw /openapi/v3)
idx2=$(k get --raw /openapi/v3)
h1=$(echo "$idx1" | sed -n 's/.*kueue.x-k8s.io\/v1beta2?hash=\([0-9A-F]*\).*/\1/p')
h0=$(echo "$idx1" | sed -n 's/.*kueue.x-k8s.io\/v1beta1?hash=\([0-9A-F]*\).*/\1/p')
expect_eq "openapi hash length" "${#h1}" "128"
expect_eq "openapi index stable" "$idx2" "$idx1"
[ -n "$h0" ] && [ "$h0" != "$h1" ] && ok || bad "documents of two versions share a hash: $h0"
# jobs are in the category "all", as kube-apiserver lists them
expect_has "get all" "$(k get all -A -o name 2>&1)" "job.batch/job"
# a second controller on the same database refuses to start
"$QF" controller --db "$tmp/a.db" --listen 127.0.0.1:0 2>"$tmp/second.err"
expect_eq "second exit" "$?" "2"
expect_has "second message" "$(cat "$tmp/second.err")" "held by another controller"
# kill -9 and restart: the same workloads, the same admissions
before=$(k get workloads -o jsonpath='{range .items[*]}{.metadata.name}={.status.admission.clusterQueue};{end}')
kill -9 "$PID"
wait "$PID" 2>/dev/null
start b --db "$tmp/a.db" || exit 1
after=$(k get workloads -o jsonpath='{range .items[*]}{.metadata.name}={.status.admission.clusterQueue};{end}')
expect_eq "state after kill -9" "$after" "$before"
expect_eq "jobs after kill -9" "$(k get jobs -o jsonpath='{.items[*].spec.suspend}')" "false false false false"
expect_eq "finished after kill -9" "$(k get workload "$wl3" -o jsonpath='{.status.conditions[?(@.type=="Finished")].status}')" "True"
# deleting a ClusterQueue that job4 still runs on: Kueue's resource-in-use
# finalizer keeps it, terminating, until the last holder finishes; a new
# Workload meanwhile is frozen, and finds no ClusterQueue afterwards
k delete clusterqueue cluster-queue --wait=false >/dev/null 2>&1 || bad "delete cq"
expect_eq "cq kept" "$(k get clusterqueue cluster-queue -o jsonpath='{.metadata.finalizers[0]}')" "kueue.x-k8s.io/resource-in-use"
expect_has "cq terminating" "$(k get clusterqueue cluster-queue -o jsonpath='{.metadata.deletionTimestamp}')" "T"
sed 's/^  name: job1/  name: job5/' "$EX/job1.yaml" >"$tmp/job5.yaml"
k create -f "$tmp/job5.yaml" >/dev/null 2>&1 || bad "create job5"
wl5=$(k get workloads -o jsonpath='{.items[?(@.metadata.ownerReferences[0].name=="job5")].metadata.name}')
wait_for "job5 frozen" "k get workload $wl5 -o jsonpath='{.status.conditions[?(@.type==\"QuotaReserved\")].message}'" "ClusterQueue cluster-queue is inactive"
"$QF" finish default/job4 --server "http://127.0.0.1:$PORT" >/dev/null || bad "finish job4"
wait_for "cq gone" "k get clusterqueues -o name" ""
wait_for "job5 without cq" "k get workload $wl5 -o jsonpath='{.status.conditions[?(@.type==\"QuotaReserved\")].message}'" "ClusterQueue cluster-queue doesn't exist"
# kubectl's typed commands send built-in kinds as protobuf: a Namespace
# and a Job are read from it
out=$(k create namespace team-pb 2>&1) || bad "create namespace from protobuf: $out"
expect_eq "namespace from protobuf" "$(k get namespace team-pb -o jsonpath='{.metadata.name} {.metadata.labels} {.spec.finalizers} {.status.phase}')" \
	'team-pb {"kubernetes.io/metadata.name":"team-pb"} ["kubernetes"] Active'
expect_eq "no empty strings" "$(k get namespace team-pb -o jsonpath='{.metadata.generateName}{.metadata.namespace}')" ""
out=$(k create namespace team-pb 2>&1) && bad "a second team-pb created"
expect_has "namespace exists" "$out" 'namespaces "team-pb" already exists'
out=$(k create job pb --image=busybox:1.36 -- sh -c 'exit 0' 2>&1) || bad "create job from protobuf: $out"
expect_eq "job from protobuf" "$(k get job pb -o jsonpath='{.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].command} {.spec.template.spec.restartPolicy} {.spec.completions}')" \
	'busybox:1.36 ["sh","-c","exit 0"] Never 1'
k delete job pb >/dev/null 2>&1 || bad "delete pb"
k delete namespace team-pb >/dev/null 2>&1 || bad "delete team-pb"
# an OpenAPI path with an empty version is 404, and the controller still
# answers (it looped for ever: one request stopped it)
out=$(timeout 10 kubectl $S get --raw /openapi/v3/apis/kueue.x-k8s.io/ 2>&1)
expect_has "empty version" "$out" "NotFound"
expect_eq "still answers" "$(timeout 10 kubectl $S get --raw /healthz 2>&1)" "ok"
stop
expect_eq "exit after SIGTERM" "$?" "0"
finish
