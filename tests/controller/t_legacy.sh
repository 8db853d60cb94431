#!/bin/sh
# A Configuration with featureGates UnadmittedWorkloadsObservability false
# (Kueue v0.18.x-v0.19.2's default): the Workloads and Events the
# controller writes carry the legacy reasons, as such a Kueue writes them
# (scheduler.go requeueAndUpdate, workload_controller.go
# resolveLegacyUnadmittedQuotaReservedCondition, SyncAdmittedCondition):
# the scheduler's QuotaReserved=False and Warning say Pending, a missing
# LocalQueue is Inadmissible, and a Workload never admitted has no
# Admitted condition (tests/controller/lib.sh).
suite=legacy
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/m"
cp "$EX/setup.yaml" "$tmp/m/"
printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfeatureGates: {UnadmittedWorkloadsObservability: false}\n' \
	>"$tmp/m/kueue-config.yaml"
start a --db "$tmp/a.db" --manifests "$tmp/m" || exit 1
cond() { k get workload "$1" -o jsonpath="{.status.conditions[?(@.type==\"$2\")].$3}"; }
wl_create fits user-queue 9
wl_create big user-queue 1
wl_create lost nope 1
wait_for "fits admitted" "cond fits Admitted status" "True"
wait_for "big pending" "cond big QuotaReserved reason" "Pending"
expect_has "big's message" "$(cond big QuotaReserved message)" "insufficient unused quota for cpu in flavor default-flavor, 1 more needed"
wait_for "lost inadmissible" "cond lost QuotaReserved reason" "Inadmissible"
expect_eq "lost's message" "$(cond lost QuotaReserved message)" "LocalQueue nope doesn't exist"
expect_eq "big: no Admitted" "$(k get workload big -o jsonpath='{.status.conditions[*].type}')" "QuotaReserved"
expect_eq "lost: no Admitted" "$(k get workload lost -o jsonpath='{.status.conditions[*].type}')" "QuotaReserved"
ev=$(k get events -o jsonpath='{range .items[*]}{.type}/{.reason}/{.involvedObject.name}{"\n"}{end}')
expect_has "Pending event" "$ev" "Warning/Pending/big"
case "$ev" in *WaitingForQuota*) bad "a granular event: $ev" ;; *) ok ;; esac
stop || bad "stop"
finish
