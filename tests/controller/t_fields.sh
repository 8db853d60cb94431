#!/bin/sh
# Server-side field validation (fieldValidation) with real kubectl: an
# unknown field of a Kueue object (a typo, a v1beta1 field in a v1beta2
# body) is refused by default (kubectl sends Strict), warned about and
# pruned with --validate=warn, pruned silently with --validate=false;
# server-side apply refuses it whatever --validate says; a dry run
# refuses the same; nothing stored ever keeps one (tests/controller/lib.sh).
suite=fields
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"

cat >"$tmp/typo.yaml" <<'EOF'
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq-typo
spec:
  cohort: team
  namespaceSelektor: {}
  resourceGroups:
  - coveredResources: ["cpu"]
    flavors:
    - name: default-flavor
      resources:
      - name: cpu
        nominalQuota: 1
        borrowLimitt: 2
EOF
F1='unknown field "spec.cohort"'
F2='unknown field "spec.namespaceSelektor"'
F3='unknown field "spec.resourceGroups[0].flavors[0].resources[0].borrowLimitt"'

# default (Strict): refused with kube-apiserver's text, nothing stored
out=$(k create -f "$tmp/typo.yaml" 2>&1)
expect_has "create strict" "$out" 'Error from server (BadRequest): error when creating'
expect_has "create strict text" "$out" "ClusterQueue in version \"v1beta2\" cannot be handled as a ClusterQueue: strict decoding error: $F1, $F2, $F3"
k get cq cq-typo >/dev/null 2>&1 && bad "strict create stored"
out=$(k apply -f "$tmp/typo.yaml" 2>&1)
expect_has "apply strict" "$out" "strict decoding error: $F1"
k get cq cq-typo >/dev/null 2>&1 && bad "strict apply stored"
# a dry run refuses the same
out=$(k create --dry-run=server -f "$tmp/typo.yaml" 2>&1)
expect_has "dry strict" "$out" "strict decoding error: $F1"
# ... and answers the pruned object with warnings under Warn
out=$(k create --dry-run=server --validate=warn -f "$tmp/typo.yaml" -o json 2>"$tmp/err")
expect_has "dry warn warning" "$(cat "$tmp/err")" "Warning: $F2"
case $out in *Selektor*|*cohort*|*borrowLimitt*) bad "dry warn answer not pruned: $out" ;; *) ok "dry warn pruned" ;; esac
k get cq cq-typo >/dev/null 2>&1 && bad "dry warn stored"

# --validate=warn: stored pruned, one warning a field
k create --validate=warn -f "$tmp/typo.yaml" >"$tmp/out" 2>"$tmp/err" || bad "warn create failed: $(cat "$tmp/err")"
expect_has "warn create out" "$(cat "$tmp/out")" "clusterqueue.kueue.x-k8s.io/cq-typo created"
for f in "$F1" "$F2" "$F3"; do
	expect_has "warn: $f" "$(cat "$tmp/err")" "Warning: $f"
done
got=$(k get cq cq-typo -o json)
case $got in *Selektor*|*\"cohort\"*|*borrowLimitt*) bad "warn stored unknown fields: $got" ;; *) ok "warn stored pruned" ;; esac
# the engine never honoured v1beta1's cohort: no cohort in the model
expect_eq "no cohortName" "$(k get cq cq-typo -o jsonpath='{.spec.cohortName}')" ""
k delete cq cq-typo >/dev/null 2>&1

# --validate=false (Ignore): stored pruned, nothing said
k create --validate=false -f "$tmp/typo.yaml" >"$tmp/out" 2>"$tmp/err" || bad "ignore create failed: $(cat "$tmp/err")"
expect_eq "ignore silent" "$(cat "$tmp/err")" ""
got=$(k get cq cq-typo -o json)
case $got in *Selektor*|*\"cohort\"*|*borrowLimitt*) bad "ignore stored unknown fields: $got" ;; *) ok "ignore stored pruned" ;; esac

# merge patch: kubectl patch sends no fieldValidation, so the server's
# default (Warn) prunes and warns; client-side apply of a change sends
# Strict, refused with kube's Invalid "patch" cause
out=$(k patch cq cq-typo --type=merge -p '{"spec":{"stopPolicyy":"Hold"}}' 2>&1)
expect_has "patch default warn" "$out" 'Warning: unknown field "spec.stopPolicyy"'
expect_eq "patch pruned" "$(k get cq cq-typo -o jsonpath='{.spec.stopPolicyy}')" ""
sed 's/cohort: team/stopPolicyy: Hold/' "$tmp/typo.yaml" >"$tmp/typo2.yaml"
out=$(k apply -f "$tmp/typo2.yaml" 2>&1)
# the cause in details, which kubectl prints (it printed the whole patch)
expect_eq "patch strict" "$(printf '%s\n' "$out" | tail -1)" 'The request is invalid: patch: Invalid value: "...": strict decoding error: unknown field "spec.resourceGroups[0].flavors[0].resources[0].borrowLimitt", unknown field "spec.namespaceSelektor", unknown field "spec.stopPolicyy"'
expect_has "patch strict field" "$out" 'strict decoding error: unknown field'
expect_has "patch strict stopPolicyy" "$out" 'unknown field "spec.stopPolicyy"'
out=$(k apply --validate=warn -f "$tmp/typo2.yaml" 2>&1)
expect_has "patch warn" "$out" 'Warning: unknown field "spec.stopPolicyy"'
expect_eq "patch warn pruned" "$(k get cq cq-typo -o jsonpath='{.spec.stopPolicyy}')" ""

# replace (PUT): strict like create
k get cq cq-typo -o json | sed 's/"resourceGroups"/"namespaceSelektor":{},"resourceGroups"/' >"$tmp/put.json"
out=$(k replace -f "$tmp/put.json" 2>&1)
expect_has "replace strict" "$out" "strict decoding error: $F2"

# server-side apply: refused whatever --validate says
out=$(k apply --server-side -f "$tmp/typo.yaml" 2>&1)
expect_has "ssa strict" "$out" 'Error from server: failed to create typed patch object (/cq-typo; kueue.x-k8s.io/v1beta2, Kind=ClusterQueue): errors:'
expect_has "ssa field" "$out" '.spec.namespaceSelektor: field not declared in schema'
out=$(k apply --server-side --validate=false -f "$tmp/typo.yaml" 2>&1)
expect_has "ssa ignore still refused" "$out" 'field not declared in schema'

# the same ClusterQueue in v1beta1 is valid (cohort is that version's):
# converted, not pruned
sed 's|v1beta2|v1beta1|; s/namespaceSelektor/namespaceSelector/; /borrowLimitt/d; s/cq-typo/cq-old/' "$tmp/typo.yaml" >"$tmp/old.yaml"
k create -f "$tmp/old.yaml" >/dev/null 2>&1 || bad "v1beta1 create: $(k create -f "$tmp/old.yaml" 2>&1)"
expect_eq "v1beta1 cohort converted" "$(k get cq cq-old -o jsonpath='{.spec.cohortName}')" "team"

# a database written before fields were validated (edited here): the
# restart prunes what it reads, as kube-apiserver prunes reads too
stop || bad "stop"
sqlite3 "$tmp/a.db" "UPDATE objects SET json = json_set(json, '\$.spec.cohort', 'team', '\$.spec.namespaceSelektor', json('{}')) WHERE res = 'clusterqueues' AND name = 'cq-typo'" || bad "sqlite edit"
expect_has "db edited" "$(sqlite3 "$tmp/a.db" "SELECT json FROM objects WHERE name = 'cq-typo'")" 'Selektor'
start a --db "$tmp/a.db" || exit 1
got=$(k get cq cq-typo -o jsonpath='{.spec}')
case $got in *Selektor*|*\"cohort\"*) bad "restart kept unknown fields: $got" ;; *) ok "restart pruned" ;; esac
expect_eq "restart no cohortName" "$(k get cq cq-typo -o jsonpath='{.spec.cohortName}')" ""
finish
