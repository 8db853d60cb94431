#!/bin/sh
# metadata.finalizers as kube-apiserver keeps them and Kueue sets them:
# Kueue's webhooks put kueue.x-k8s.io/resource-in-use on every new
# ClusterQueue and ResourceFlavor; a deletion a finalizer holds leaves
# the object with its deletion time until an update empties the list;
# no finalizer may be added then; a flavor a ClusterQueue names, and a
# ClusterQueue whose quota workloads hold, stay until Kueue lets go; and
# ObjectMeta is validated (labels, annotations, finalizer names).
suite=finalizers
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
expect_eq "cq finalizer" "$(k get cq cluster-queue -o jsonpath='{.metadata.finalizers}')" '["kueue.x-k8s.io/resource-in-use"]'
expect_eq "rf finalizer" "$(k get rf default-flavor -o jsonpath='{.metadata.finalizers}')" '["kueue.x-k8s.io/resource-in-use"]'
expect_eq "lq: none" "$(k get lq user-queue -o jsonpath='{.metadata.finalizers}')" ""
# a replace that drops it gets it back (Kueue's reconciler)
k get cq cluster-queue -o json | python3 -c 'import json,sys; o=json.load(sys.stdin); del o["metadata"]["finalizers"]; print(json.dumps(o))' >"$tmp/cq.json"
k replace -f "$tmp/cq.json" >/dev/null 2>&1 || bad "replace cq"
expect_eq "cq finalizer back" "$(k get cq cluster-queue -o jsonpath='{.metadata.finalizers}')" '["kueue.x-k8s.io/resource-in-use"]'

# the flavor a ClusterQueue names: held, and still working
out=$(k delete rf default-flavor --wait=false 2>&1) || bad "delete rf: $out"
expect_has "rf held" "$(k get rf default-flavor -o jsonpath='{.metadata.deletionTimestamp}')" "T"
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1"
wait_for "admitted through the held flavor" "k get clusterqueue cluster-queue -o jsonpath='{.status.admittedWorkloads}'" "1"
out=$(k label rf default-flavor team=a 2>&1) || bad "label a held flavor: $out"
out=$(k patch rf default-flavor --type=json -p '[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/late"}]' 2>&1) && bad "a new finalizer on a held flavor"
expect_has "no new finalizers" "$out" 'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/late"}'

# a ClusterQueue with a finalizer of its own and an admitted job
k patch cq cluster-queue --type=json -p '[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/audit"}]' >/dev/null 2>&1 || bad "add cq finalizer"
out=$(curl -s -X DELETE "http://127.0.0.1:$PORT/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cluster-queue")
expect_has "held delete answers the object" "$out" '"deletionTimestamp":'
expect_has "both finalizers" "$(k get cq cluster-queue -o jsonpath='{.metadata.finalizers}')" '"kueue.x-k8s.io/resource-in-use","example.com/audit"'
k delete job job1 >/dev/null 2>&1 || bad "delete job1"
wait_for "kueue lets go, its own stays" "k get cq cluster-queue -o jsonpath='{.metadata.finalizers}'" '["example.com/audit"]'
expect_has "rf still held" "$(k get rf default-flavor -o jsonpath='{.metadata.finalizers}')" "resource-in-use"
# empty, and held by its own: Kueue's cache keeps it, terminating
expect_eq "empty held cq terminating" "$(k get cq cluster-queue -o jsonpath='{.status.conditions[?(@.type=="Active")].reason}')" "Terminating"
# kube-apiserver's markAsDeleting made its generation one more; Kueue
# writes the Active condition with it
expect_eq "generation one more, observed" "$(k get cq cluster-queue -o jsonpath='{.metadata.generation}/{.status.conditions[?(@.type=="Active")].observedGeneration}')" "2/2"
wl_create held-w user-queue 1
wait_for "waits on the terminating cq" "k get workload held-w -o jsonpath='{.status.conditions[?(@.type==\"QuotaReserved\")].message}'" "ClusterQueue cluster-queue is inactive"
expect_eq "lq sees it inactive" "$(k get lq user-queue -o jsonpath='{.status.conditions[?(@.type=="Active")].reason}')" "ClusterQueueIsInactive"
k patch cq cluster-queue --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "empty the cq's finalizers"
expect_has "cq gone" "$(k get cq cluster-queue 2>&1)" "NotFound"
wait_for "then it does not exist" "k get workload held-w -o jsonpath='{.status.conditions[?(@.type==\"QuotaReserved\")].message}'" "ClusterQueue cluster-queue doesn't exist"
k delete workload held-w >/dev/null 2>&1 || bad "delete held-w"
wait_for "rf gone once no queue names it" "k get rf -o name" ""

# a LocalQueue held by a user's finalizer stays until it is removed
cat >"$tmp/lq.yaml" <<'EOF'
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  name: held
  namespace: default
  finalizers: ["example.com/hold"]
spec:
  clusterQueue: cluster-queue
EOF
k create -f "$tmp/lq.yaml" >/dev/null 2>&1 || bad "create lq"
k delete lq held --wait=false >/dev/null 2>&1 || bad "delete lq"
expect_eq "lq held" "$(k get lq held -o jsonpath='{.metadata.finalizers}')" '["example.com/hold"]'
out=$(k delete lq held --wait=false 2>&1) || bad "delete again: $out"
stop
expect_eq "stop" "$?" "0"
start b --db "$tmp/a.db" || exit 1
expect_has "held across a restart" "$(k get lq held -o jsonpath='{.metadata.deletionTimestamp}')" "T"
k patch lq held --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]' >/dev/null 2>&1 || bad "remove lq finalizer"
expect_has "lq gone" "$(k get lq held 2>&1)" "NotFound"

# a Namespace whose contents a finalizer holds stays Terminating, takes
# nothing new, and goes when they do
k create namespace team-x >/dev/null 2>&1 || bad "create team-x"
sed 's/namespace: default/namespace: team-x/' "$tmp/lq.yaml" | k create -f - >/dev/null 2>&1 || bad "create team-x/held"
sed "s/namespace: default/namespace: team-x/" "$EX/job2.yaml" | k create -f - >/dev/null 2>&1 || bad "create team-x job2"
k delete namespace team-x --wait=false >/dev/null 2>&1 || bad "delete team-x"
expect_eq "ns terminating" "$(k get ns team-x -o jsonpath='{.status.phase}')" "Terminating"
expect_eq "its job deleted, its held queue kept" "$(k get jobs,lq -n team-x -o name)" "localqueue.kueue.x-k8s.io/held"
out=$(sed 's/namespace: default/namespace: team-x/; s/name: held/name: other/' "$tmp/lq.yaml" | k create -f - 2>&1) && bad "created in a terminating namespace"
expect_has "nothing new" "$out" 'localqueues.kueue.x-k8s.io "other" is forbidden: unable to create new content in namespace team-x because it is being terminated'
k patch lq held -n team-x --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]' >/dev/null 2>&1 || bad "release team-x/held"
wait_for "ns gone" "k get ns team-x -o name 2>&1" 'Error from server (NotFound): namespaces "team-x" not found'

# ObjectMeta: refused in kube's words, or warned about
cat >"$tmp/bad.yaml" <<'EOF'
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  name: bad
  namespace: default
  labels: {"bad key!": "x", "ok": "bad value!"}
  finalizers: ["Example.com/x"]
spec:
  clusterQueue: cluster-queue
EOF
out=$(k create -f "$tmp/bad.yaml" 2>&1) && bad "bad metadata created"
expect_has "label key" "$out" 'metadata.labels: Invalid value: "bad key!": name part must consist of'
expect_has "label value" "$out" 'metadata.labels: Invalid value: "bad value!": a valid label must be an empty string'
expect_has "finalizer name" "$out" 'metadata.finalizers: Invalid value: "Example.com/x": prefix part a lowercase RFC 1123 subdomain'
sed -e '/labels:/d' -e 's|"Example.com/x"|"hold"|' "$tmp/bad.yaml" >"$tmp/warn.yaml"
out=$(k create -f "$tmp/warn.yaml" 2>&1) || bad "unqualified finalizer refused: $out"
expect_has "unqualified: warned" "$out" 'Warning: metadata.finalizers: "hold": prefer a domain-qualified finalizer name'
k create -f "$EX/job2.yaml" >/dev/null 2>&1
out=$(k label job job2 'bad key!=x' 2>&1) && bad "a bad label on a Job"
expect_has "job label" "$out" 'metadata.labels: Invalid value: "bad key!"'
stop
expect_eq "stop b" "$?" "0"
finish
