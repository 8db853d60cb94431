#!/bin/sh
# Kueue's visibility API (visibility.kueue.x-k8s.io): the pending
# workloads of a ClusterQueue or a LocalQueue in queue order (priority,
# then creation), with their positions, limit and offset, and kube's 404
# for a queue that does not exist, as `kubectl get --raw` reads them.
suite=visibility
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k apply -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "setup"
# a second LocalQueue on the same ClusterQueue
cat >"$tmp/lq2.yaml" <<'YAML'
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {namespace: default, name: other-queue}
spec: {clusterQueue: cluster-queue}
YAML
k apply -f "$tmp/lq2.yaml" >/dev/null 2>&1 || bad "second LocalQueue"
# 9 CPU: the first Job (9 pods) fills it, the next four wait
job() { # name queue
	sed -e "s/^  name: job1$/  name: $1/" -e "s/user-queue/$2/" \
		-e 's/^  parallelism: 3$/  parallelism: 9/' \
		-e 's/^  completions: 3$/  completions: 9/' "$EX/job1.yaml" >"$tmp/$1.yaml"
	k create -f "$tmp/$1.yaml" >/dev/null 2>&1 || bad "create $1"
	sleep 1.1 # distinct creation seconds: the order is by creation
}
job big user-queue
job w1 user-queue
job w2 other-queue
job w3 user-queue
V=/apis/visibility.kueue.x-k8s.io/v1beta2
rows() {
	k get --raw "$1" 2>&1 | python3 -c 'import json,sys
d=json.load(sys.stdin)
print(d["kind"], d["apiVersion"])
for i in d["items"]:
    print(i["metadata"]["name"].split("-")[1], i["localQueueName"], i["positionInClusterQueue"], i["positionInLocalQueue"], i["priority"], i["metadata"]["ownerReferences"][0]["kind"], i["metadata"]["ownerReferences"][0]["name"])'
}
expect_eq "ClusterQueue" "$(rows "$V/clusterqueues/cluster-queue/pendingworkloads")" "PendingWorkloadsSummary visibility.kueue.x-k8s.io/v1beta2
w1 user-queue 0 0 0 Job w1
w2 other-queue 1 0 0 Job w2
w3 user-queue 2 1 0 Job w3"
expect_eq "LocalQueue, offset 1" "$(rows "$V/namespaces/default/localqueues/user-queue/pendingworkloads?offset=1")" "PendingWorkloadsSummary visibility.kueue.x-k8s.io/v1beta2
w3 user-queue 2 1 0 Job w3"
expect_eq "v1beta1, limit 1" "$(rows "/apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/cluster-queue/pendingworkloads?limit=1")" "PendingWorkloadsSummary visibility.kueue.x-k8s.io/v1beta1
w1 user-queue 0 0 0 Job w1"
expect_eq "no such ClusterQueue" "$(k get --raw "$V/clusterqueues/nope/pendingworkloads" 2>&1)" 'Error from server (NotFound): clusterqueue.visibility.kueue.x-k8s.io "nope" not found'
expect_eq "no such LocalQueue" "$(k get --raw "$V/namespaces/default/localqueues/nope/pendingworkloads" 2>&1)" 'Error from server (NotFound): localqueue.visibility.kueue.x-k8s.io "nope" not found'
# the queue order moves with it: the oldest waiting one admitted next
k delete job big >/dev/null 2>&1 || bad "delete big"
sleep 1
expect_eq "after big went" "$(rows "$V/clusterqueues/cluster-queue/pendingworkloads")" "PendingWorkloadsSummary visibility.kueue.x-k8s.io/v1beta2
w2 other-queue 0 0 0 Job w2
w3 user-queue 1 0 0 Job w3"
stop || bad "stop"
finish
