#!/bin/sh
# An admission check's Retry with requeueAfterSeconds, as a check's
# controller writes it through the Workload's /status: Kueue evicts the
# workload (its checks back to Pending) and keeps it out of the queue
# until the backoff is over (Requeued=False, reason AdmissionCheck); then
# its workload controller queues it again (Requeued=True,
# BackoffFinished) and it reserves quota anew.  It stayed out for good.
# The answer to the /status write holds the states written (kubectl said
# "patched (no change)").
suite=checkretry
. "$(dirname "$0")/lib.sh"

cond() { # cond WORKLOAD TYPE FIELD
	k get workload "$1" -o jsonpath="{.status.conditions[?(@.type==\"$2\")].$3}"
}
retry() { # retry WORKLOAD [SECONDS]: the check asks for a retry
	after=""
	[ -n "${2:-}" ] && after=",\"requeueAfterSeconds\":$2"
	out=$(k patch workload "$1" --subresource=status --type=merge -p "{\"status\":{\"admissionChecks\":[{\"name\":\"check\",\"state\":\"Retry\",\"message\":\"no capacity\",\"lastTransitionTime\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\"$after}]}}" 2>&1) || bad "retry on $1"
	# the answer holds the write, as the API server's does
	expect_eq "kubectl sees its change to $1" "$out" "workload.kueue.x-k8s.io/$1 patched"
}

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/checked.yaml" >/dev/null 2>&1 || bad "create policy"
k patch ac check --subresource=status --type=merge -p '{"status":{"conditions":[{"type":"Active","status":"True","reason":"Ready","message":"ok","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}' >/dev/null 2>&1 || bad "activate the check"

job_create j1 lq 2
w1=$(wl_of j1)
wait_for "j1 reserved" "cond $w1 QuotaReserved status" "True"
retry "$w1" 2
wait_for "j1 evicted by its check" "cond $w1 Evicted reason" "AdmissionCheck"
expect_eq "out of the queue for the backoff" "$(cond "$w1" Requeued status)/$(cond "$w1" Requeued reason)" "False/AdmissionCheck"
expect_eq "no quota meanwhile" "$(cond "$w1" QuotaReserved status)" "False"
expect_eq "its check back to Pending" "$(k get workload "$w1" -o jsonpath='{.status.admissionChecks[0].state}')" "Pending"
# the backoff is 2 s: requeued by the controller alone, nothing else happens
wait_for "backoff over" "cond $w1 Requeued reason" "BackoffFinished" 200
expect_eq "requeued" "$(cond "$w1" Requeued status)" "True"
wait_for "j1 reserved again" "cond $w1 QuotaReserved status" "True"

# without requeueAfterSeconds: queued again at once
job_create j2 lq 2
w2=$(wl_of j2)
wait_for "j2 reserved" "cond $w2 QuotaReserved status" "True"
retry "$w2"
wait_for "j2 evicted once" "k get workload $w2 -o jsonpath='{.status.schedulingStats.evictions[0].reason}/{.status.schedulingStats.evictions[0].count}'" "AdmissionCheck/1"
wait_for "j2 reserved again" "cond $w2 QuotaReserved status" "True"

# the backoff is written (status.requeueState.requeueAt) and outlives a
# restart of the controller
job_create j3 lq 2
w3=$(wl_of j3)
wait_for "j3 reserved" "cond $w3 QuotaReserved status" "True"
retry "$w3" 3
wait_for "j3 evicted" "cond $w3 Evicted reason" "AdmissionCheck"
expect_has "requeueAt written" "$(k get workload "$w3" -o jsonpath='{.status.requeueState.requeueAt}')" "T"
stop
expect_eq "stop" "$?" "0"
start b --db "$tmp/a.db" || exit 1
expect_eq "still backing off" "$(cond "$w3" Requeued status)" "False"
wait_for "j3 backoff over" "cond $w3 Requeued reason" "BackoffFinished" 200
wait_for "j3 reserved again" "cond $w3 QuotaReserved status" "True"
expect_eq "requeueState cleared" "$(k get workload "$w3" -o jsonpath='{.status.requeueState}')" ""
stop
expect_eq "stop b" "$?" "0"
finish
