#!/bin/sh
# The Configuration's objectRetentionPolicies.workloads in the controller,
# as Kueue applies them: a finished Workload is deleted afterFinished after
# its Finished condition (workload controller: Event Deleted "Deleted
# finished workload due to elapsed retention"; the Job stays, complete),
# and a Job Kueue deactivated (here: its maximum execution time ran out)
# is deleted afterDeactivatedByKueue after that eviction, its Workload with
# it (jobframework: Event Deleted "Deleted job: deactivation retention
# period expired").  Both were ignored.  Conditions count in whole
# seconds, so the waits are up to 10 s.
suite=retention
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/m"
cp "$EX/setup.yaml" "$tmp/m/"
cat >"$tmp/m/config.yaml" <<'YAML'
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
objectRetentionPolicies:
  workloads:
    afterFinished: 1s
    afterDeactivatedByKueue: 1s
YAML
wl_of() {
	k get workloads -o jsonpath="{.items[?(@.metadata.ownerReferences[0].name==\"$1\")].metadata.name}"
}
start a --db "$tmp/a.db" --manifests "$tmp/m" || exit 1
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1"
w1=$(wl_of job1)
[ -n "$w1" ] || bad "job1's workload"
wait_for "job1 runs" "k get job job1 -o jsonpath='{.spec.suspend}'" "false"
"$QF" finish default/job1 --server "http://127.0.0.1:$PORT" >/dev/null || bad "finish job1"
expect_eq "still there at once" "$(k get workload "$w1" -o jsonpath='{.status.conditions[?(@.type=="Finished")].status}')" "True"
wait_for "finished workload deleted" "k get workload $w1 -o name 2>&1 | grep -c NotFound" "1" 200
expect_eq "its job stays, complete" "$(k get job job1 --no-headers | awk '{print $2}')" "Complete"
expect_has "Kueue's event" "$(k get events --field-selector involvedObject.name="$w1" -o jsonpath='{range .items[*]}{.reason}={.message};{end}')" "Deleted=Deleted finished workload due to elapsed retention;"

sed "s/name: job1/name: capped/; s|^    kueue.x-k8s.io/queue-name: user-queue|&\n    kueue.x-k8s.io/max-exec-time-seconds: \"1\"|" \
	"$EX/job1.yaml" | k create -f - >/dev/null 2>&1 || bad "create capped"
wc=$(wl_of capped)
wait_for "capped deactivated" "k get workload $wc -o jsonpath='{.status.conditions[?(@.type==\"Evicted\")].reason}'" "DeactivatedDueToMaximumExecutionTimeExceeded" 200
wait_for "its job deleted" "k get job capped -o name 2>&1 | grep -c NotFound" "1" 200
expect_has "workload gone with it" "$(k get workload "$wc" 2>&1)" "NotFound"
expect_has "jobframework's event" "$(k get events --field-selector involvedObject.name=capped -o jsonpath='{range .items[*]}{.reason}={.message};{end}')" "Deleted=Deleted job: deactivation retention period expired;"
stop
expect_eq "stop" "$?" "0"
finish
