#!/bin/sh
# A Job without the kueue.x-k8s.io/queue-name label: Kueue's Job webhook
# labels it with the LocalQueue "default" of its namespace, and it becomes
# a Workload like any other (jobframework defaults.go
# ApplyDefaultLocalQueue); in a namespace without that LocalQueue, or in
# kueue-system (not matched by the default managedJobsNamespaceSelector),
# it is left alone: no label, no Workload, not suspended
# (tests/controller/lib.sh).
suite=jobqueue
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
sed '/kueue.x-k8s.io\/queue-name/d; /^  labels:$/d' "$EX/job1.yaml" >"$tmp/nolabel.yaml"
# no LocalQueue "default" yet: not Kueue's
k create -f "$tmp/nolabel.yaml" >/dev/null 2>&1 || bad "create job1"
expect_eq "job1 unlabelled" "$(k get job job1 -o jsonpath='{.metadata.labels.kueue\.x-k8s\.io/queue-name}')" ""
expect_eq "job1 runs" "$(k get job job1 -o jsonpath='{.spec.suspend}')" "false"
expect_eq "job1 no workload" "$(k get workloads -o name)" ""
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: kueue-system}\n' |
	k create -f - >/dev/null 2>&1 || bad "create namespace kueue-system"
for ns in default kueue-system; do
	printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: default, namespace: %s}\nspec: {clusterQueue: cluster-queue}\n' \
		"$ns" | k create -f - >/dev/null 2>&1 || bad "create LocalQueue default in $ns"
done
sed 's/name: job1/name: job2/' "$tmp/nolabel.yaml" | k create -f - >/dev/null 2>&1 || bad "create job2"
expect_eq "job2 labelled default" \
	"$(k get job job2 -o jsonpath='{.metadata.labels.kueue\.x-k8s\.io/queue-name}')" "default"
wl2=$(k get workloads -o jsonpath='{.items[?(@.metadata.ownerReferences[0].name=="job2")].spec.queueName}')
expect_eq "job2 workload in default" "$wl2" "default"
wait_for "job2 admitted" "k get job job2 -o jsonpath='{.spec.suspend}'" "false"
sed 's/name: job1/name: job3/; s/namespace: default/namespace: kueue-system/' "$tmp/nolabel.yaml" |
	k create -f - >/dev/null 2>&1 || bad "create job3"
expect_eq "job3 in kueue-system unlabelled" "$(k get job job3 -n kueue-system -o jsonpath='{.metadata.labels.kueue\.x-k8s\.io/queue-name}')" ""
expect_eq "job3 no workload" "$(k get workloads -n kueue-system -o name)" ""
stop
expect_eq "stop" "$?" "0"
finish
