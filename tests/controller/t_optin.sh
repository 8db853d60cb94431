#!/bin/sh
# Kueue (v0.15 on, v0.19 always: ManagedJobsNamespaceSelectorAlwaysRespected)
# manages a Job only in a namespace its Configuration's
# managedJobsNamespaceSelector matches, even one with a queue name: the
# policy (from git, with the Configuration) opts team-a in; a labelled
# Job in team-b gets no Workload and stays suspended (Kueue's Job webhook
# suspends a Job with a queue name; jobframework WorkloadShouldBeSuspended,
# reconciler.go), one in kube-system, which the webhook does not see,
# runs as created (tests/controller/lib.sh).
suite=optin
. "$(dirname "$0")/lib.sh"
git_policy
for ns in team-a team-b kube-system; do
	label=""
	[ "$ns" = team-a ] && label="  labels: {kueue-managed: \"true\"}"
	printf 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\n%s\n---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: user-queue, namespace: %s}\nspec: {clusterQueue: cluster-queue}\n' \
		"$ns" "$label" "$ns" >"$tmp/work/policy/$ns.yaml"
done
printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nmanagedJobsNamespaceSelector:\n  matchLabels: {kueue-managed: "true"}\n' \
	>"$tmp/work/policy/kueue-config.yaml"
g add -A && g commit -qm one
git clone -q --bare "$tmp/work" "$tmp/bare.git"
start a --db "$tmp/a.db" --git-repo "$tmp/bare.git" --git-ref main \
	--git-path policy || exit 1
for ns in team-a team-b kube-system; do
	sed "s/namespace: default/namespace: $ns/" "$EX/job1.yaml" |
		k create -f - >/dev/null 2>&1 || bad "create job1 in $ns"
done
wait_for "team-a job runs" "k get job job1 -n team-a -o jsonpath='{.spec.suspend}'" "false"
expect_eq "team-a workload" "$(k get workloads -n team-a -o name | wc -l)" "1"
expect_eq "team-b no workload" "$(k get workloads -n team-b -o name)" ""
expect_eq "team-b suspended" "$(k get job job1 -n team-b -o jsonpath='{.spec.suspend}')" "true"
expect_eq "kube-system no workload" "$(k get workloads -n kube-system -o name)" ""
expect_eq "kube-system runs as created" "$(k get job job1 -n kube-system -o jsonpath='{.spec.suspend}')" "false"
stop
expect_eq "stop" "$?" "0"
finish
