#!/bin/sh
# A Job Kueue does not manage is the client's to suspend and resume, as
# with kube's job controller: created unsuspended it gets its
# status.startTime at once (kubectl's DURATION counted from it; it had
# none, and DURATION stayed empty), suspended by a patch it loses it,
# resumed it starts again from then (a patch of spec.suspend was undone
# before: the controller kept every Job's suspend as its own).  A queued
# Job's suspend stays Kueue's, and Kueue's Job reconciler leaves its
# Events on it (CreatedWorkload, Started, and Stopped with the eviction
# message when it is suspended again).
suite=jobstart
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
st() { k get job "$1" -o jsonpath='{.spec.suspend}/{.status.startTime}'; }

# not Kueue's (no queue name, no LocalQueue "default")
k create job plain --image=busybox -- true >/dev/null 2>&1 || bad "create plain"
case $(st plain) in false/20*) ok ;; *) bad "plain started: $(st plain)" ;; esac
k patch job plain -p '{"spec":{"suspend":true}}' >/dev/null 2>&1 || bad "suspend plain"
expect_eq "suspended: no startTime" "$(st plain)" "true/"
expect_eq "kubectl says so" "$(k get job plain --no-headers | awk '{print $2}')" "Suspended"
k patch job plain -p '{"spec":{"suspend":false}}' >/dev/null 2>&1 || bad "resume plain"
case $(st plain) in false/20*) ok ;; *) bad "plain resumed: $(st plain)" ;; esac
k create job other --image=busybox -- true >/dev/null 2>&1 || bad "create other"
was=$(st other)
# ... they survive a restart, even a kill -9
kill -9 "$PID"
start b --db "$tmp/a.db" || exit 1
case $(st plain) in false/20*) ok ;; *) bad "plain after restart: $(st plain)" ;; esac
expect_eq "other after restart" "$(st other)" "$was"

# Kueue's Job reconciler says on a Job it queues that it made its
# Workload, and, once admitted, that it started it (kubectl describe job
# listed no Events)
k create -f "$EX/job2.yaml" >/dev/null 2>&1 || bad "create job2"
j2=job2
wait_for "job2 runs" "k get job $j2 -o jsonpath='{.spec.suspend}'" "false"
wl2=$(k get workloads -o jsonpath='{.items[0].metadata.name}')
expect_eq "job events" "$(k get events --field-selector involvedObject.kind=Job,involvedObject.name=$j2 -o jsonpath='{range .items[*]}{.reason}={.message}={.source.component}{"\n"}{end}')" \
	"CreatedWorkload=Created Workload: default/$wl2=batch/job-kueue-controller
Started=Admitted by clusterQueue cluster-queue=batch/job-kueue-controller"
# stopped by its Workload's eviction: Stopped, with the eviction message
k patch workload "$wl2" --type=merge -p '{"spec":{"active":false}}' >/dev/null 2>&1 || bad "deactivate wl2"
wait_for "job2 suspended" "k get job $j2 -o jsonpath='{.spec.suspend}'" "true"
evmsg=$(k get workload "$wl2" -o jsonpath='{.status.conditions[?(@.type=="Evicted")].message}')
expect_eq "eviction message" "$evmsg" "The workload is deactivated"
expect_eq "stopped event" "$(k get events --field-selector involvedObject.kind=Job,involvedObject.name=$j2,reason=Stopped -o jsonpath='{range .items[*]}{.message}={.type}{"\n"}{end}')" "$evmsg=Normal"
k delete job "$j2" >/dev/null 2>&1

# a queued Job: Kueue's; the client's suspend is not taken
sed 's/parallelism: 3/parallelism: 30/; s/completions: 3/completions: 30/' "$EX/job1.yaml" |
	k create -f - >/dev/null 2>&1 || bad "create job1"
wait_for "queued job waits" "k get job job1 -o jsonpath='{.spec.suspend}'" "true"
k patch job job1 -p '{"spec":{"suspend":false}}' >/dev/null 2>&1 || bad "patch job1"
expect_eq "still Kueue's" "$(st job1)" "true/"
stop
expect_eq "stop" "$?" "0"
finish
