#!/bin/sh
# GitOps sync: the controller follows a branch of a bare repository
# (no checkout), applies each revision as a difference (a quota change, a
# queue removed and pruned), rejects an invalid revision with a
# PolicyRejected event and metric while the last good policy stays in
# force, rejects whole a revision the live policy refuses, stamps every event with policyRevision, and compiles tenant specs
# found at --git-path (tests/controller/lib.sh).
suite=gitops
. "$(dirname "$0")/lib.sh"
commit() { g add -A && g commit -qm "$1" && g push -q "$tmp/bare.git" main; }
git_policy
printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: extra\nspec:\n  namespaceSelector: {}\n  stopPolicyy: Hold\n' >"$tmp/work/policy/extra.yaml"
commit one
git clone -q --bare "$tmp/work" "$tmp/bare.git"
rev1=$(git -C "$tmp/work" rev-parse HEAD)
start a --db "$tmp/g.db" --git-repo "$tmp/bare.git" --git-ref main \
	--git-path policy --sync-interval 100ms --events "$tmp/ev.jsonl" || exit 1
expect_eq "revision applied" "$(k get cq cluster-queue -o jsonpath='{.metadata.annotations.quotaflow\.dev/policy-revision}')" "$rev1"
expect_eq "both queues" "$(k get cq -o name | wc -l)" "2"
# there at 0 before any rejection: a counter that first appears at 1
# gives an alert on increase() nothing to see
expect_eq "rejected metric at 0" "$(k get --raw /metrics | sed -n 's/^quotaflow_policy_rejected_total //p')" "0"
# an unknown field of an applied revision is dropped with a warning in
# the log (QF512), which named nothing before
expect_has "unknown field logged" "$(grep '"level":"warning"' "$tmp/a.log")" 'extra.yaml:7:16: warning: unknown field \"stopPolicyy\" ignored'
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1"
wait_for "job1 runs" "k get job job1 -o jsonpath='{.spec.suspend}'" "false"
# a quota change and a removed queue: the difference is applied
sed -i 's/nominalQuota: 9$/nominalQuota: 2/' "$tmp/work/policy/setup.yaml"
rm "$tmp/work/policy/extra.yaml"
commit two
rev2=$(git -C "$tmp/work" rev-parse HEAD)
wait_for "quota shrunk" "k get cq cluster-queue -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}'" "2"
wait_for "extra pruned" "k get cq -o name" "clusterqueue.kueue.x-k8s.io/cluster-queue"
# Kueue keeps an admitted workload when its queue shrinks below usage
expect_eq "job1 kept" "$(k get job job1 -o jsonpath='{.spec.suspend}')" "false"
# an invalid revision is rejected; the last good one stays
printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: bad\nspec:\n  resourceGroups: 7\n' >"$tmp/work/policy/bad.yaml"
commit three
wait_for "rejected metric" "k get --raw /metrics | sed -n 's/^quotaflow_policy_rejected_total //p'" "1"
expect_eq "still in force" "$(k get cq cluster-queue -o jsonpath='{.metadata.annotations.quotaflow\.dev/policy-revision}')" "$rev2"
expect_eq "bad not applied" "$(k get cq bad 2>&1 | grep -c NotFound)" "1"
expect_has "PolicyRejected event" "$(k get events -o jsonpath='{range .items[*]}{.reason}: {.message}{"\n"}{end}')" "PolicyRejected: "
expect_has "diagnostic located" "$(k get events -o jsonpath='{.items[?(@.reason=="PolicyRejected")].message}')" "policy/bad.yaml:6:19: error: resourceGroups must be a list"
# a revision valid alone that the live policy refuses (a cohort cycle
# through a Cohort made by hand) is rejected whole: the quota change
# listed with it is not applied either
printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata:\n  name: co-x\nspec:\n  parentName: co-y\n' >"$tmp/x.yaml"
k create -f "$tmp/x.yaml" >/dev/null 2>&1 || bad "create cohort co-x"
rm "$tmp/work/policy/bad.yaml"
sed -i 's/nominalQuota: 2$/nominalQuota: 3/' "$tmp/work/policy/setup.yaml"
printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata:\n  name: co-y\nspec:\n  parentName: co-x\n' >"$tmp/work/policy/y.yaml"
commit cycle
wait_for "cycle rejected" "k get --raw /metrics | sed -n 's/^quotaflow_policy_rejected_total //p'" "2"
expect_eq "quota unchanged" "$(k get cq cluster-queue -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}')" "2"
expect_eq "cohort y not applied" "$(k get cohort co-y 2>&1 | grep -c NotFound)" "1"
expect_eq "revision kept" "$(k get cq cluster-queue -o jsonpath='{.metadata.annotations.quotaflow\.dev/policy-revision}')" "$rev2"
# a Job admitted now carries the revision in force
k create -f "$EX/job2.yaml" >/dev/null 2>&1 || bad "create job2"
stop
expect_eq "stop" "$?" "0"
expect_has "policyRevision on events" "$(grep '"reason":"QuotaReserved"' "$tmp/ev.jsonl" | tail -1)" "\"policyRevision\":\"$rev"
expect_has "rejection line" "$(grep PolicyRejected "$tmp/ev.jsonl")" "\"policyRevision\":\"$(git -C "$tmp/work" rev-parse HEAD)\""
expect_has "cycle refused by rule" "$(grep PolicyRejected "$tmp/ev.jsonl" | tail -1)" "[QF565]"
# tenant specs at the path are compiled, as `quotaflow compile` would
rm -rf "$tmp/work/policy" && cp -r "$ROOT/examples/tenants" "$tmp/work/tenants"
commit four
start b --db "$tmp/t.db" --git-repo "$tmp/bare.git" --git-ref main \
	--git-path tenants || exit 1
n=$("$QF" compile "$ROOT/examples/tenants" --stdout 2>/dev/null | grep -c '^kind: ClusterQueue')
expect_eq "compiled queues" "$(k get cq -o name | wc -l)" "$n"
versions() {
	k get ns,rf,cohort,cq,lq,wpc -A -o jsonpath='{range .items[*]}{.kind}/{.metadata.name}={.metadata.resourceVersion}/{.metadata.generation} {end}'
}
before=$(versions)
stop
expect_eq "stop b" "$?" "0"
# a restart syncs the same revision again: nothing served changes (it
# gave every policy object a new resourceVersion and a watch event)
start b2 --db "$tmp/t.db" --git-repo "$tmp/bare.git" --git-ref main \
	--git-path tenants || exit 1
expect_eq "same revision again: versions kept" "$(versions)" "$before"
stop || bad "stop b2"
# the Kueue Configuration of a revision is in force, and after a restart
# too (stored with the state, so the turns before the first sync have it)
rm -rf "$tmp/work/tenants" && mkdir "$tmp/work/policy"
cp "$EX/setup.yaml" "$tmp/work/policy/"
printf 'apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nfairSharing:\n  enable: true\n' >"$tmp/work/policy/config.yaml"
commit five
start c --db "$tmp/f.db" --git-repo "$tmp/bare.git" --git-ref main \
	--git-path policy || exit 1
wait_for "fair sharing from git" "k get cq cluster-queue -o jsonpath='{.status.fairSharing.weightedShare}'" "0"
expect_eq "no warning for the Configuration" "$(grep -c 'ignores it' "$tmp/c.log")" "0"
stop || bad "stop c"
start d --db "$tmp/f.db" --git-repo "$tmp/bare.git" --git-ref main \
	--git-path policy || exit 1
wait_for "fair sharing after restart" "k get cq cluster-queue -o jsonpath='{.status.fairSharing.weightedShare}'" "0"
stop || bad "stop d"
finish
