#!/bin/sh
# kubectl describe of a Job's Workload lists its events: the Events of a
# Workload made in the turn of its Job's create (QuotaReserved,
# Admitted) carry its uid, which describe selects them by; they carried
# an empty uid, and describe said "Events: <none>" (tests/controller/lib.sh).
suite=describe
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k apply -f "$EX/preempt.yaml" >/dev/null 2>&1 || bad "policy"
k apply -f "$EX/low.yaml" >/dev/null 2>&1 || bad "low"
wl=$(k get workloads -n team-a -o jsonpath='{.items[0].metadata.name}')
uid=$(k get workloads -n team-a -o jsonpath='{.items[0].metadata.uid}')
wait_for "admitted" "k get workload -n team-a $wl -o jsonpath='{.status.admission.clusterQueue}'" "cq-a"
expect_eq "event uids" "$(k get events -n team-a --field-selector involvedObject.name=$wl -o jsonpath='{range .items[*]}{.reason}={.involvedObject.uid} {end}')" \
	"QuotaReserved=$uid Admitted=$uid "
out=$(k describe workload -n team-a "$wl")
expect_has "describe reserved" "$out" "Normal  QuotaReserved"
expect_has "describe admitted" "$out" "Normal  Admitted"
stop || bad "stop"
finish
