#!/bin/sh
# A deleted Job's Workload: kube's garbage collector deletes what the Job
# owns (background, kubectl's default, and foreground propagation), Kueue
# finalizes it then, and the quota is free; with --cascade=orphan it
# stays, finished.  The events the controller writes say Deleted, so an
# audit of them ends the admission there.
suite=jobdelete
. "$(dirname "$0")/lib.sh"

wl_of() {
	k get workloads -o jsonpath="{.items[?(@.metadata.ownerReferences[0].name==\"$1\")].metadata.name}"
}
start a --db "$tmp/a.db" --events "$tmp/ev.jsonl" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
for n in 1 2 3; do k create -f "$EX/job$n.yaml" >/dev/null 2>&1 || bad "create job$n"; done
w1=$(wl_of job1)
w2=$(wl_of job2)
w3=$(wl_of job3)
[ -n "$w1" ] && [ -n "$w2" ] && [ -n "$w3" ] || bad "workloads: '$w1' '$w2' '$w3'"
wait_for "three admitted" "k get clusterqueue cluster-queue -o jsonpath='{.status.admittedWorkloads}'" "3"
k delete job job1 >/dev/null 2>&1 || bad "delete job1"
expect_has "background: gone" "$(k get workload "$w1" 2>&1)" "NotFound"
k delete job job2 --cascade=foreground >/dev/null 2>&1 || bad "delete job2"
expect_has "foreground: gone" "$(k get workload "$w2" 2>&1)" "NotFound"
k delete job job3 --cascade=orphan >/dev/null 2>&1 || bad "delete job3"
expect_eq "orphan: stays, finished" "$(k get workload "$w3" -o jsonpath='{.status.conditions[?(@.type=="Finished")].status}')" "True"
wait_for "quota free" "k get clusterqueue cluster-queue -o jsonpath='{.status.admittedWorkloads}'" "0"
stop
expect_eq "stop" "$?" "0"
expect_eq "deleted events" "$(grep -c '"reason":"Deleted"' "$tmp/ev.jsonl")" "2"
expect_has "job1's" "$(grep '"reason":"Deleted"' "$tmp/ev.jsonl")" "\"workload\":\"default/$w1\""
# the audit of those events: nothing holds quota at the end
"$QF" audit ingest --db "$tmp/audit.db" "$tmp/ev.jsonl" >/dev/null 2>&1 || bad "audit ingest"
expect_eq "audit: no cpu in use at the end" "$("$QF" audit query --db "$tmp/audit.db" "select usage_milli from d_usage where resource = 'cpu' order by at_ms desc limit 1" | tail -1)" "0"

# A client deletes the Workload of a running Job: Kueue's Job reconciler
# stops the Job ("Workload is deleted") and makes it a new Workload, of
# the same name (the Job's name and uid), which queues anew: behind job2
# here, whose Workload came first.  A finished Job's Workload goes for good.
start b --db "$tmp/b.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup b"
for n in 1 2; do k create -f "$EX/job$n.yaml" >/dev/null 2>&1 || bad "create job$n b"; done
k patch cq cluster-queue --type=merge -p '{"spec":{"resourceGroups":[{"coveredResources":["cpu","memory"],"flavors":[{"name":"default-flavor","resources":[{"name":"cpu","nominalQuota":3},{"name":"memory","nominalQuota":"36Gi"}]}]}]}}' >/dev/null 2>&1 || bad "shrink cq"
w1=$(wl_of job1)
wait_for "job1 runs" "k get job job1 -o jsonpath='{.spec.suspend}'" "false"
uid=$(k get workload "$w1" -o jsonpath='{.metadata.uid}')
k delete workload "$w1" >/dev/null 2>&1 || bad "delete job1's workload"
expect_eq "job1 stopped" "$(k get job job1 -o jsonpath='{.spec.suspend}')" "true"
ev=$(k get events --field-selector involvedObject.name=job1 -o jsonpath='{range .items[*]}{.reason}={.message};{end}')
expect_has "Stopped event" "$ev" "Stopped=Workload is deleted;"
expect_has "CreatedWorkload event" "$ev" "CreatedWorkload=Created Workload: default/$w1;"
nuid=$(k get workload "$w1" -o jsonpath='{.metadata.uid}')
[ -n "$nuid" ] && [ "$nuid" != "$uid" ] || bad "a new workload: uid '$nuid' after '$uid'"
wait_for "job2 took the quota" "k get job job2 -o jsonpath='{.spec.suspend}'" "false"
expect_eq "job1's new one waits" "$(k get workload "$w1" -o jsonpath='{.status.conditions[?(@.type=="QuotaReserved")].reason}')" "WaitingForQuota"
w2=$(wl_of job2)
"$QF" finish default/job2 --server "http://127.0.0.1:$PORT" >/dev/null || bad "finish job2"
k delete workload "$w2" >/dev/null 2>&1 || bad "delete job2's finished workload"
expect_has "finished: not made again" "$(k get workload "$w2" 2>&1)" "NotFound"
expect_eq "finished job stays complete" "$(k get job job2 --no-headers | awk '{print $2}')" "Complete"
# the API's Events are Kueue's: quotaflow's own Finished and Deleted
# (kept in --events for the audit) are not among them
case ";$(k get events -o jsonpath='{range .items[*]}{.reason};{end}')" in
*";Finished;"* | *";Deleted;"* | *";Requeued;"*) bad "quotaflow's own events in the API" ;;
*) ok ;;
esac
stop
expect_eq "stop b" "$?" "0"
finish
