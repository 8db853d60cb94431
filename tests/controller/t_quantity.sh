#!/bin/sh
# A Job's resource quantities as kube-apiserver stores them (a built-in
# kind is decoded into its Go type and encoded again): canonical text
# ("1000m" is "1", "0.5" is "500m", a JSON number 2 is "2"), in its pod
# template and so in its Workload's; a value that is no quantity is
# refused with kube's decoding error, on create, update and patch.  A
# Kueue object (a custom resource) keeps the text it was sent.  A Job
# re-applied with the same amount written differently is the same Job:
# its Workload is not remade.
suite=quantity
. "$(dirname "$0")/lib.sh"

# job1 of the fixtures as NAME with its cpu request written CPU
job() {
	sed "s/name: job1/name: $1/; s/cpu: \"1\"/cpu: $2/" "$EX/job1.yaml"
}
res() {
	k get job "$1" -o jsonpath='{.spec.template.spec.containers[0].resources.requests}'
}
wl_of() {
	k get workloads -o jsonpath="{.items[?(@.metadata.ownerReferences[0].name==\"$1\")].metadata.name}"
}

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"

job milli 1000m | k create -f - >/dev/null 2>&1 || bad "create milli"
expect_eq "1000m stored as 1" "$(res milli)" '{"cpu":"1","memory":"200Mi"}'
wl=$(wl_of milli)
[ -n "$wl" ] || bad "milli has no workload"
expect_eq "workload's request" "$(k get workload "$wl" -o jsonpath='{.spec.podSets[0].template.spec.containers[0].resources.requests.cpu}')" "1"
job num 2 | k create -f - >/dev/null 2>&1 || bad "create num"
expect_eq "a number stored as a string" "$(k get job num -o json | tr -d ' \n' | grep -o '"cpu":[^,]*' | head -1)" '"cpu":"2"'
job half 0.5 | k create -f - >/dev/null 2>&1 || bad "create half"
expect_eq "0.5 stored as 500m" "$(res half)" '{"cpu":"500m","memory":"200Mi"}'
job big 1.5Gi | sed 's/memory: 200Mi/memory: 2048Mi/' | k create -f - >/dev/null 2>&1 || bad "create big"
expect_eq "binary SI canonical" "$(k get job big -o jsonpath='{.spec.template.spec.containers[0].resources.requests.memory}')" "2Gi"

# no quantity: kube's decoding error, nothing stored
out=$(job bad abc | k create -f - 2>&1) && bad "abc accepted"
expect_has "create refused" "$out" "(BadRequest): error when creating \"STDIN\": Job in version \"v1\" cannot be handled as a Job: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)\$'"
out=$(k get job bad 2>&1) && bad "the refused job was stored"
out=$(k patch job milli --type=merge -p '{"spec":{"template":{"spec":{"containers":[{"name":"main","image":"busybox","resources":{"requests":{"cpu":"1x"}}}]}}}}' 2>&1) &&
	bad "patch to 1x accepted"
expect_has "patch refused" "$out" "cannot be handled as a Job: quantities must match"
expect_eq "refused patch changed nothing" "$(res milli)" '{"cpu":"1","memory":"200Mi"}'
out=$(k get job milli -o json | sed 's/"memory": "200Mi"/"memory": "lots"/' | k replace -f - 2>&1) &&
	bad "replace with lots accepted"
expect_has "replace refused" "$out" "cannot be handled as a Job: quantities must match"

# ParseQuantity's other error: a suffix it cannot read (an exponent
# beyond int64), in its words
out=$(job suf '"1e99999999999999999999"' | k create -f - 2>&1) && bad "1e99999999999999999999 accepted"
expect_eq "suffix refused" "$out" 'Error from server (BadRequest): error when creating "STDIN": Job in version "v1" cannot be handled as a Job: unable to parse quantity'"'"'s suffix'
# what Go reads is stored as its String() gives it: any number of
# digits (such a request never fits, as in Kueue: its Workload waits),
# text that already looks canonical as typed, an exponent cut to int32
# as Go cuts it (1e4294967297 is 10)
job long '"123456789012345678901234567890"' | k create -f - >/dev/null 2>&1 || bad "create long"
expect_eq "30 digits kept" "$(k get job long -o jsonpath='{.spec.template.spec.containers[0].resources.requests.cpu}')" "123456789012345678901234567890"
lwl=$(wl_of long)
[ -n "$lwl" ] || bad "long has no workload"
wait_for "long waits" "k get workload $lwl -o jsonpath='{.status.conditions[0].type}={.status.conditions[0].reason}'" "QuotaReserved=ExceedsMaxQuota"
job plus '"+1"' | k create -f - >/dev/null 2>&1 || bad "create plus"
expect_eq "+1 kept" "$(k get job plus -o jsonpath='{.spec.template.spec.containers[0].resources.requests.cpu}')" "+1"
job e100 1e100 | k create -f - >/dev/null 2>&1 || bad "create e100"
expect_eq "1e100 canonical" "$(k get job e100 -o jsonpath='{.spec.template.spec.containers[0].resources.requests.cpu}')" "10e99"
job wrap '"1e4294967297"' | k create -f - >/dev/null 2>&1 || bad "create wrap"
expect_eq "exponent cut to int32" "$(k get job wrap -o jsonpath='{.spec.template.spec.containers[0].resources.requests.cpu}')" "10"
for j in plus e100 wrap long; do k delete job $j >/dev/null 2>&1; done

# the same amount written differently: the same Job, the same Workload
uid=$(k get workload "$wl" -o jsonpath='{.metadata.uid}')
gen=$(k get job milli -o jsonpath='{.metadata.generation}')
job milli '"1"' | k apply --server-side --force-conflicts -f - >/dev/null 2>&1 || bad "apply milli"
job milli 1000m | k apply --server-side --force-conflicts -f - >/dev/null 2>&1 || bad "apply milli again"
expect_eq "same workload" "$(k get workload "$wl" -o jsonpath='{.metadata.uid}')" "$uid"
expect_eq "same generation" "$(k get job milli -o jsonpath='{.metadata.generation}')" "$gen"

# a ClusterQueue (a custom resource) keeps its text
k get clusterqueue cluster-queue -o json | sed 's/"nominalQuota": 9$/"nominalQuota": "9000m"/' | k replace -f - >/dev/null 2>&1 ||
	bad "replace the ClusterQueue"
expect_has "custom resource as sent" "$(k get clusterqueue cluster-queue -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources}')" '"nominalQuota":"9000m"'
stop
expect_eq "stop" "$?" "0"
finish
