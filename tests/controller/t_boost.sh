#!/bin/sh
# The kueue.x-k8s.io/priority-boost annotation of a Workload, changed
# after it was created, with the Configuration's PriorityBoost gate on:
# Kueue's workload controller sees the effective priority change
# (workload.PriorityChanged) and queues the Workload again with it, so a
# pending Workload boosted above a holder preempts it; a holder whose
# boost is taken away can then be preempted (tests/controller/lib.sh).
# A boost that is no signed 32-bit integer is refused by Kueue's Workload
# webhook.
suite=boost
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/m"
sed 's/^  namespaceSelector: {}$/  namespaceSelector: {}\n  preemption: {withinClusterQueue: LowerPriority}/' \
	"$EX/setup.yaml" >"$tmp/m/setup.yaml"
grep -q 'withinClusterQueue: LowerPriority' "$tmp/m/setup.yaml" || bad "fixture"
printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfeatureGates: {PriorityBoost: true}\n' \
	>"$tmp/m/kueue-config.yaml"
start a --db "$tmp/a.db" --manifests "$tmp/m" || exit 1
cond() { k get workload "$1" -o jsonpath="{.status.conditions[?(@.type==\"$2\")].status}"; }
wl_create first user-queue 9
wait_for "first admitted" "cond first Admitted" "True"
wl_create second user-queue 9
wait_for "second waits" "k get workload second -o jsonpath='{.status.conditions[?(@.type==\"QuotaReserved\")].reason}'" "WaitingForQuota"
# equal priorities: no preemption until the boost
k annotate workload second kueue.x-k8s.io/priority-boost=100 >/dev/null 2>&1 || bad "annotate second"
wait_for "boosted second admitted" "cond second Admitted" "True"
expect_eq "first preempted" "$(cond first Preempted)" "True"
expect_has "the boost in the Preempted event" \
	"$(k get events --field-selector reason=Preempted,involvedObject.name=first -o jsonpath='{.items[*].message}')" \
	"preemptor effective priority: 100 (base: 0, boost: 100)"
expect_eq "annotation kept" "$(k get workload second -o jsonpath='{.metadata.annotations.kueue\.x-k8s\.io/priority-boost}')" "100"
# the boost moves to first: it preempts second back
k annotate workload second kueue.x-k8s.io/priority-boost- >/dev/null 2>&1 || bad "unannotate second"
k annotate workload first kueue.x-k8s.io/priority-boost=5 >/dev/null 2>&1 || bad "annotate first"
wait_for "first admitted again" "cond first Admitted" "True"
expect_eq "second preempted" "$(cond second Preempted)" "True"
# Kueue's Workload webhook (gate on): a boost is a signed 32-bit integer
out=$(k annotate workload first --overwrite kueue.x-k8s.io/priority-boost=high 2>&1) && bad "a word as a boost"
expect_has "boost: a word" "$out" 'admission webhook "vworkload.kb.io" denied the request: metadata.annotations[kueue.x-k8s.io/priority-boost]: Invalid value: "high": must be a valid signed integer'
out=$(k annotate workload first --overwrite kueue.x-k8s.io/priority-boost=2147483648 2>&1) && bad "a boost past int32"
expect_has "boost: past int32" "$out" 'Invalid value: "2147483648": must be a valid signed integer'
out=$(k annotate workload first --overwrite kueue.x-k8s.io/priority-boost= 2>&1) && bad "an empty boost"
expect_has "boost: empty" "$out" 'must be a valid signed integer; use "0" explicitly, empty string is not allowed'
k annotate workload first --overwrite kueue.x-k8s.io/priority-boost=-2147483648 >/dev/null 2>&1 || bad "the lowest int32 boost"
expect_eq "boost kept" "$(k get workload first -o jsonpath='{.metadata.annotations.kueue\.x-k8s\.io/priority-boost}')" "-2147483648"
stop || bad "stop"
finish
