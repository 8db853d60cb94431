#!/bin/sh
# The visibility API lists the pending workloads Kueue's queue manager
# holds that wait out of our heaps, in queue order: one that lost its
# reservation to a LocalQueue being deleted (Kueue queues it again at
# once, round after round) and one loaded in an admission-check backoff
# after a restart (Kueue's inadmissible set: PushOrUpdate,
# backoffWaitingTimeExpired).  One evicted into a backoff while the
# controller runs stays out until requeueAt, as Kueue leaves it.  The
# ClusterQueue's pendingWorkloads and kueue_pending_workloads count them
# as Kueue's queue manager does.
suite=visheld
. "$(dirname "$0")/lib.sh"

cond() { # cond WORKLOAD TYPE FIELD
	k get workload "$1" -o jsonpath="{.status.conditions[?(@.type==\"$2\")].$3}"
}
V=/apis/visibility.kueue.x-k8s.io/v1beta2
rows() {
	k get --raw "$1" 2>&1 | python3 -c 'import json,sys
d=json.load(sys.stdin)
for i in d["items"]:
    print(i["metadata"]["name"].split("-")[1], i["localQueueName"], i["positionInClusterQueue"], i["positionInLocalQueue"])'
}

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/checked.yaml" -f "$EX/held.yaml" >/dev/null 2>&1 || bad "create policy"
k patch ac check --subresource=status --type=merge -p '{"status":{"conditions":[{"type":"Active","status":"True","reason":"Ready","message":"ok","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}' >/dev/null 2>&1 || bad "activate the check"

# a reserves in held (its check pending); r reserves, then its check
# asks for a retry in 10 minutes: evicted into a backoff
job_create a held 1
wa=$(wl_of a)
wait_for "a reserved" "cond $wa QuotaReserved status" "True"
sleep 1.1
job_create r lq 1
wr=$(wl_of r)
wait_for "r reserved" "cond $wr QuotaReserved status" "True"
k patch workload "$wr" --subresource=status --type=merge -p "{\"status\":{\"admissionChecks\":[{\"name\":\"check\",\"state\":\"Retry\",\"message\":\"later\",\"lastTransitionTime\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\",\"requeueAfterSeconds\":600}]}}" >/dev/null 2>&1 || bad "retry r"
wait_for "r evicted" "cond $wr Evicted reason" "AdmissionCheck"
sleep 1.1
job_create big lq 7
wait_for "big reserved" "cond $(wl_of big) QuotaReserved status" "True"
sleep 1.1
# d does not fit while a and big hold 8 of 9
job_create d lq 3
wd=$(wl_of d)
wait_for "d waits" "cond $wd QuotaReserved reason" "WaitingForQuota"
k delete lq held --wait=false >/dev/null 2>&1 || bad "delete lq held"
wait_for "a loses its reservation" "cond $wa QuotaReserved message" "LocalQueue held is terminating or missing"
expect_eq "d still waits" "$(cond "$wd" QuotaReserved status)" "False"

expect_eq "ClusterQueue: a held by its terminating LocalQueue, first" "$(rows "$V/clusterqueues/cq/pendingworkloads")" "a held 0 0
d lq 1 0"
expect_eq "the terminating LocalQueue" "$(rows "$V/namespaces/default/localqueues/held/pendingworkloads")" "a held 0 0"
expect_eq "LocalQueue lq" "$(rows "$V/namespaces/default/localqueues/lq/pendingworkloads")" "d lq 1 0"

# Kueue's queue manager holds a in cq's heap (or in flight), as the
# visibility API shows: it counts in cq's pendingWorkloads and
# kueue_pending_workloads{status="active"} as in its LocalQueue's; r,
# evicted into its backoff, counts nowhere until requeueAt
pending() { # pending KIND NAME
	k get "$1" "$2" -o jsonpath='{.status.pendingWorkloads}'
}
metric() { # metric STATUS
	k get --raw /metrics | sed -n "s/^kueue_pending_workloads{cluster_queue=\"cq\",status=\"$1\"} //p"
}
wait_for "cq counts a and d" "pending cq cq" "2"
expect_eq "held counts a" "$(pending lq held)" "1"
expect_eq "lq counts d" "$(pending lq lq)" "1"
expect_eq "a active, d inadmissible" "$(metric active)/$(metric inadmissible)" "1/1"

# after a restart r is loaded in its backoff: held, ordered by its
# eviction time (GetQueueOrderTimestamp), between a and d
stop || bad "stop a"
start b --db "$tmp/a.db" || exit 1
expect_eq "r still backing off" "$(cond "$wr" Requeued status)/$(cond "$wr" Requeued reason)" "False/AdmissionCheck"
expect_eq "ClusterQueue after the restart" "$(rows "$V/clusterqueues/cq/pendingworkloads")" "a held 0 0
r lq 1 0
d lq 2 1"
expect_eq "LocalQueue lq after the restart" "$(rows "$V/namespaces/default/localqueues/lq/pendingworkloads?offset=1")" "d lq 2 1"
expect_eq "held, limit 1" "$(rows "$V/namespaces/default/localqueues/held/pendingworkloads?limit=1")" "a held 0 0"
expect_eq "pending counts r and d" "$(k get lq lq -o jsonpath='{.status.pendingWorkloads}')" "2"
wait_for "cq counts a, r and d" "pending cq cq" "3"
expect_eq "a active; r and d inadmissible" "$(metric active)/$(metric inadmissible)" "1/2"
stop || bad "stop b"
finish
