#!/bin/sh
# A Job's kueue.x-k8s.io/max-exec-time-seconds label becomes its
# Workload's spec.maximumExecutionTimeSeconds (jobframework
# MaximumExecutionTimeSecondsForObject): once admitted that long, the
# Workload is deactivated and the Job suspended.  Kueue's Job webhook
# refuses a value that is not a number above 0 and a change of the label
# on a Job that runs (validateCreateForMaxExecTime,
# validateUpdateForMaxExecTime), outside kube-system and kueue-system,
# which the webhook does not see (tests/controller/lib.sh).
suite=maxexec
. "$(dirname "$0")/lib.sh"

# job1 of the fixtures with the label set to $1, named $2
labelled() {
	sed "s/name: job1/name: $2/; s|^    kueue.x-k8s.io/queue-name: user-queue|&\n    kueue.x-k8s.io/max-exec-time-seconds: \"$1\"|" \
		"$EX/job1.yaml"
}

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
out=$(labelled abc bad1 | k create -f - 2>&1) && bad "abc accepted"
expect_has "abc refused" "$out" 'metadata.labels[kueue.x-k8s.io/max-exec-time-seconds]: Invalid value: "abc": strconv.Atoi: parsing "abc": invalid syntax'
out=$(labelled 0 bad2 | k create -f - 2>&1) && bad "0 accepted"
expect_has "0 refused" "$out" "Invalid value: 0: should be greater than 0"
expect_eq "no job made" "$(k get jobs -o name)" ""
labelled 3000000000 wide | k create -f - >/dev/null 2>&1 || bad "create wide"
wide=$(k get workloads -o jsonpath='{.items[?(@.metadata.ownerReferences[0].name=="wide")].spec}')
expect_has "wide workload" "$wide" '"queueName":"user-queue"'
expect_eq "wide has no max" "$(printf '%s' "$wide" | grep -c maximumExecutionTimeSeconds)" "0"
labelled 3 capped | k create -f - >/dev/null 2>&1 || bad "create capped"
wl=$(k get workloads -o jsonpath='{.items[?(@.metadata.ownerReferences[0].name=="capped")].metadata.name}')
expect_eq "workload max" "$(k get workload "$wl" -o jsonpath='{.spec.maximumExecutionTimeSeconds}')" "3"
wait_for "capped runs" "k get job capped -o jsonpath='{.spec.suspend}'" "false"
out=$(k label job capped --overwrite kueue.x-k8s.io/max-exec-time-seconds=60 2>&1) && bad "relabel accepted"
expect_has "relabel refused" "$out" 'denied the request: metadata.labels[kueue.x-k8s.io/max-exec-time-seconds]: Invalid value: "60": field is immutable'
# deactivated 3 s after its admission: suspended, Workload inactive
i=0
while [ $i -lt 100 ] && [ "$(k get job capped -o jsonpath='{.spec.suspend}')" != "true" ]; do
	sleep 0.1
	i=$((i + 1))
done
expect_eq "capped suspended" "$(k get job capped -o jsonpath='{.spec.suspend}')" "true"
expect_eq "workload inactive" "$(k get workload "$wl" -o jsonpath='{.spec.active}')" "false"
expect_eq "evicted reason" "$(k get workload "$wl" -o jsonpath='{.status.conditions[?(@.type=="Evicted")].reason}')" "DeactivatedDueToMaximumExecutionTimeExceeded"
# a suspended Job's label may change
k label job capped --overwrite kueue.x-k8s.io/max-exec-time-seconds=60 >/dev/null 2>&1 || bad "relabel of a suspended job"
# the webhook does not see kube-system: any value, any change
printf "apiVersion: v1\nkind: Namespace\nmetadata: {name: kube-system}\n" |
	k create -f - >/dev/null 2>&1 || bad "create kube-system"
labelled abc sys | sed 's/namespace: default/namespace: kube-system/' |
	k create -f - >/dev/null 2>&1 || bad "create in kube-system refused"
k label job sys -n kube-system --overwrite kueue.x-k8s.io/max-exec-time-seconds=7 >/dev/null 2>&1 || bad "relabel in kube-system refused"
stop
expect_eq "stop" "$?" "0"
finish
