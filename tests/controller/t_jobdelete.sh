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
finish
