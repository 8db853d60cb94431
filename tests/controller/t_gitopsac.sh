#!/bin/sh
# GitOps sync of AdmissionChecks: a revision's AdmissionCheck is applied,
# labelled as managed, and pruned when a later revision drops it (Kueue's
# finalizer holding it while a ClusterQueue still names it); it was
# ignored as "not policy" (tests/controller/lib.sh).
suite=gitopsac
. "$(dirname "$0")/lib.sh"
commit() { g add -A && g commit -qm "$1" && g push -q "$tmp/bare.git" main; }
git_policy
cat >"$tmp/work/policy/check.yaml" <<'EOF'
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata: {name: check}
spec: {controllerName: kueue.x-k8s.io/provisioning-request}
EOF
commit one
git clone -q --bare "$tmp/work" "$tmp/bare.git"
start a --db "$tmp/g.db" --git-repo "$tmp/bare.git" --git-ref main \
	--git-path policy --sync-interval 100ms || exit 1
expect_eq "applied" "$(k get ac check -o jsonpath='{.metadata.labels.quotaflow\.dev/managed-by}')" "gitops"
expect_eq "not warned about" "$(grep -c 'not policy' "$tmp/a.log")" "0"
# the ClusterQueue names it, then a revision drops the check alone: it
# stays, held by Kueue, while the queue still names it
sed -i 's/^spec:$/spec:\n  admissionChecksStrategy: {admissionChecks: [{name: check}]}/' "$tmp/work/policy/setup.yaml"
commit two
wait_for "the queue names it" "k get cq cluster-queue -o jsonpath='{.spec.admissionChecksStrategy.admissionChecks[0].name}'" "check"
rm "$tmp/work/policy/check.yaml"
commit three
wait_for "pruned: held" "k get ac check -o jsonpath='{.metadata.finalizers}'" '["kueue.x-k8s.io/resource-in-use"]'
expect_has "terminating" "$(k get ac check -o jsonpath='{.metadata.deletionTimestamp}')" "T"
sed -i '/admissionChecksStrategy/d' "$tmp/work/policy/setup.yaml"
commit four
wait_for "gone once nothing names it" "k get ac -o name" ""
stop
expect_eq "stop" "$?" "0"
finish
