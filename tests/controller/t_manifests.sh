#!/bin/sh
# --manifests: the objects are served; a field Kueue's schema does not
# know is dropped with a warning (QF512) that is logged at start, before
# the controller listens, not only printed when it stops; a clean folder
# logs no warning (tests/controller/lib.sh).  A file of JSON objects one
# after another (kubectl get -o json, run after run) is served whole.
suite=manifests
. "$(dirname "$0")/lib.sh"
mkdir -p "$tmp/m" "$tmp/clean"
cp "$EX/setup.yaml" "$tmp/clean/"
sed 's/^  namespaceSelector: {}$/  namespaceSelector: {}\n  stopPolicyy: Hold/' \
	"$EX/setup.yaml" >"$tmp/m/setup.yaml"
start a --db "$tmp/m.db" --manifests "$tmp/m" || exit 1
expect_eq "queue served" "$(k get cq -o name)" "clusterqueue.kueue.x-k8s.io/cluster-queue"
first=$(grep -n 'QF512' "$tmp/a.log" | head -1 | cut -d: -f1)
listen=$(grep -n 'listening on' "$tmp/a.log" | head -1 | cut -d: -f1)
expect_has "warning logged" "$(cat "$tmp/a.log")" 'setup.yaml:14:16: warning: unknown field \"stopPolicyy\" ignored'
expect_has "did you mean" "$(cat "$tmp/a.log")" 'did you mean \"stopPolicy\"?'
expect_eq "logged before listening" "$([ -n "$first" ] && [ "$first" -lt "$listen" ] && echo yes)" "yes"
stop
expect_eq "stop" "$?" "0"
expect_eq "said once" "$(grep -c 'stopPolicyy' "$tmp/a.log")" "1"
start b --db "$tmp/c.db" --manifests "$tmp/clean" || exit 1
stop
expect_eq "clean: no warning" "$(grep -c '"level":"warning"' "$tmp/b.log")" "0"
# a restart re-applies the folder: what is already served is no change
# (same resourceVersion and generation, no watch event), a flavor without
# a spec included; a Namespace keeps the name label and the finalizers
# kube-apiserver's namespace strategy keeps on every update
mkdir -p "$tmp/again"
cp "$EX/setup.yaml" "$tmp/again/"
printf 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-r\n' >"$tmp/again/ns.yaml"
versions() {
	k get ns,rf,cq,lq -A -o jsonpath='{range .items[*]}{.kind}/{.metadata.name}={.metadata.resourceVersion}/{.metadata.generation} {end}'
}
start r1 --db "$tmp/r.db" --manifests "$tmp/again" || exit 1
before=$(versions)
stop || bad "stop r1"
start r2 --db "$tmp/r.db" --manifests "$tmp/again" || exit 1
expect_eq "restart: versions kept" "$(versions)" "$before"
expect_eq "restart: namespace label kept" "$(k get ns team-r -o jsonpath='{.metadata.labels.kubernetes\.io/metadata\.name}')" "team-r"
expect_eq "restart: namespace finalizers kept" "$(k get ns team-r -o jsonpath='{.spec.finalizers}')" '["kubernetes"]'
stop || bad "stop r2"
start c --db "$tmp/js.db" --manifests "$ROOT/tests/fixtures/doc/stream/cluster.json" || exit 1
expect_eq "JSON stream served" "$(k get cq -o name | sort | tr '\n' ' ')" \
	"clusterqueue.kueue.x-k8s.io/team-a clusterqueue.kueue.x-k8s.io/team-b "
expect_eq "JSON stream: last object" "$(k get lq -n team-b -o name)" "localqueue.kueue.x-k8s.io/main"
stop
expect_eq "stop c" "$?" "0"
# a compiled policy: with its kueue-configuration.yaml (--manifests of the
# compile -o folder) the Configuration is in force and nothing is said;
# applied without it, the log says once that the totals across flavours
# are not enforced
"$QF" compile "$ROOT/examples/tenants" -o "$tmp/compiled" >/dev/null 2>&1 || bad "compile"
start d --db "$tmp/d.db" --manifests "$tmp/compiled" || exit 1
stop
expect_eq "compiled: no Configuration warning" "$(grep -c 'no Configuration is in force' "$tmp/d.log")" "0"
expect_eq "compiled: not ignored" "$(grep -c 'not served' "$tmp/d.log")" "0"
start e --db "$tmp/e.db" || exit 1
"$QF" compile "$ROOT/examples/tenants" --stdout 2>/dev/null | k apply -f - >/dev/null 2>&1
k get rf quotaflow-total >/dev/null 2>&1 || bad "compiled policy applied"
stop
expect_eq "kubectl apply: Configuration missing, said once" "$(grep -c 'no Configuration is in force' "$tmp/e.log")" "1"
finish
