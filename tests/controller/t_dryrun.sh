#!/bin/sh
# Server-side dry runs (dryRun=All) with real kubectl: create, apply
# (client-side and server-side), patch (merge, JSON) and delete answer
# what the write would answer (a DELETE, the object kube-apiserver would
# keep while finalizers hold it), refuse what it would refuse, and change
# nothing: no object, no resourceVersion, no watch event, no Event, no
# admission (tests/controller/lib.sh).
suite=dryrun
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
k create -f "$EX/job2.yaml" >/dev/null 2>&1 || bad "create job2"
k create ns dry-ns >/dev/null 2>&1 || bad "create dry-ns"
CQ=cluster-queue
LIST=/apis/kueue.x-k8s.io/v1beta2/clusterqueues
# the list's resourceVersion is the last one handed out: every write,
# watch event and Event moves it
list_rv() {
	k get --raw "$LIST" | sed -n 's/.*"metadata":{"resourceVersion":"\([0-9]*\)".*/\1/p'
}
wait_for "job2 admitted" "k get job job2 -o jsonpath='{.spec.suspend}'" "false"
rv0=$(list_rv)
[ -n "$rv0" ] || bad "no list resourceVersion"
events0=$(k get events -A -o name | wc -l)
k get --raw "$LIST?watch=1&resourceVersion=$rv0" >"$tmp/watch.out" 2>&1 &
wpid=$!
pids="$pids $wpid"

# create: the answer, nothing stored
out=$(k create --dry-run=server -f "$EX/job1.yaml" 2>&1)
expect_eq "create job" "$out" "job.batch/job1 created (server dry run)"
expect_eq "create job suspended" "$(k create --dry-run=server -f "$EX/job1.yaml" -o jsonpath='{.spec.suspend}/{.metadata.uid}/{.metadata.resourceVersion}' 2>&1 | sed 's/[0-9a-f-]\{36\}/UID/')" "true/UID/"
k get job job1 >/dev/null 2>&1 && bad "dry-run job stored"
expect_eq "no workload" "$(k get workloads -o name | wc -l)" "1"
sed 's/name: cluster-queue$/name: cq-dry/; s/name: user-queue/name: lq-dry/; s/name: default-flavor$/name: rf-dry/' "$EX/setup.yaml" >"$tmp/new.yaml"
out=$(k create --dry-run=server -f "$tmp/new.yaml" 2>&1)
expect_has "create policy" "$out" "clusterqueue.kueue.x-k8s.io/cq-dry created (server dry run)"
k get cq cq-dry >/dev/null 2>&1 && bad "dry-run cq stored"
# a Workload created as such: checked as the engine would take it
cat >"$tmp/wl.yaml" <<'EOF'
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: wl-dry
  namespace: default
spec:
  queueName: user-queue
  podSets:
  - name: main
    count: 1
    template:
      spec:
        containers:
        - name: c
          image: busybox
EOF
out=$(k create --dry-run=server -f "$tmp/wl.yaml" 2>&1)
expect_eq "create workload" "$out" "workload.kueue.x-k8s.io/wl-dry created (server dry run)"
k get workload wl-dry >/dev/null 2>&1 && bad "dry-run workload stored"
out=$(sed '/podSets:/,$d' "$tmp/wl.yaml" | k create --dry-run=server -f - 2>&1)
expect_has "workload invalid" "$out" "a Workload needs at least one entry in podSets"
# refused as the write would be
sed 's/nominalQuota: 9/nominalQuota: lots/' "$tmp/new.yaml" >"$tmp/bad.yaml"
# (a create: Kueue's mutating webhook decodes it before the schema)
out=$(k create --dry-run=server -f "$tmp/bad.yaml" 2>&1)
expect_has "create invalid" "$out" "Error from server: error when creating \"$tmp/bad.yaml\": admission webhook \"mclusterqueue.kb.io\" denied the request: quantities must match the regular expression"
out=$(k create --dry-run=server -f "$EX/setup.yaml" 2>&1)
expect_has "create exists" "$out" "AlreadyExists"
out=$(k create --raw "$LIST?dryRun=Some" -f "$tmp/new.yaml" 2>&1)
expect_has "bad dryRun" "$out" 'supported values: "All"'

# apply (a merge patch of a live object): the patched answer, not stored
sed 's/nominalQuota: 9/nominalQuota: 5/' "$EX/setup.yaml" >"$tmp/five.yaml"
out=$(k apply --dry-run=server -f "$tmp/five.yaml" 2>&1)
expect_has "apply" "$out" "clusterqueue.kueue.x-k8s.io/$CQ configured (server dry run)"
expect_eq "apply answer" "$(k apply --dry-run=server -f "$tmp/five.yaml" -o jsonpath='{.items[1].spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}' 2>/dev/null)" "5"
out=$(k apply --dry-run=server -f "$tmp/bad.yaml" 2>&1)
expect_has "apply invalid" "$out" "admission webhook \"mclusterqueue.kb.io\" denied the request: quantities must match the regular expression"
out=$(k apply --server-side --force-conflicts --dry-run=server -f "$tmp/five.yaml" 2>&1)
expect_has "server-side apply" "$out" "clusterqueue.kueue.x-k8s.io/$CQ serverside-applied (server dry run)"
out=$(k apply --server-side --dry-run=server -f "$tmp/new.yaml" 2>&1)
expect_has "server-side apply create" "$out" "clusterqueue.kueue.x-k8s.io/cq-dry serverside-applied (server dry run)"
k get cq cq-dry >/dev/null 2>&1 && bad "dry-run server-side apply stored"

# patch: merge and JSON
out=$(k patch cq $CQ --dry-run=server --type=merge -p '{"spec":{"stopPolicy":"Hold"}}' -o jsonpath='{.spec.stopPolicy}/{.metadata.generation}' 2>&1)
expect_eq "merge patch" "$out" "Hold/2"
out=$(k patch cq $CQ --dry-run=server --type=json -p '[{"op":"replace","path":"/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota","value":"1"}]' 2>&1)
# (kubectl patch 1.32 does not say "(server dry run)"; it sent dryRun=All)
expect_eq "json patch" "$out" "clusterqueue.kueue.x-k8s.io/$CQ patched"
out=$(k patch job job2 --dry-run=server -p '{"metadata":{"labels":{"x":"y"}}}' 2>&1)
expect_eq "strategic patch" "$out" "job.batch/job2 patched"
out=$(k label workload --all --dry-run=server x=y 2>&1)
expect_has "label workload" "$out" "labeled (server dry run)"

# delete: the Job keeps running, the ClusterQueue stays
out=$(k delete job job2 --dry-run=server 2>&1)
expect_eq "delete job" "$out" 'job.batch "job2" deleted (server dry run)'
out=$(k delete cq $CQ --dry-run=server 2>&1)
expect_has "delete cq" "$out" "deleted (server dry run)"
out=$(k delete localqueues --all --dry-run=server 2>&1)
expect_has "delete all" "$out" "deleted (server dry run)"
out=$(k delete --raw "/apis/batch/v1/namespaces/default/jobs?dryRun=All" 2>&1)
expect_has "deletecollection" "$out" '"name":"job2"'
out=$(k delete ns default --dry-run=server 2>&1)
expect_has "delete namespace default: refused, as kube does" "$out" "this namespace may not be deleted"
out=$(k delete ns dry-ns --dry-run=server 2>&1)
expect_has "delete namespace" "$out" "deleted (server dry run)"
expect_eq "dry-ns kept" "$(k get ns dry-ns -o name 2>&1)" "namespace/dry-ns"

# nothing changed
expect_eq "job2 running" "$(k get job job2 -o jsonpath='{.spec.suspend}')" "false"
expect_eq "workload admitted" "$(k get workloads -o jsonpath='{.items[0].status.conditions[?(@.type=="Admitted")].status}')" "True"
expect_eq "quota" "$(k get cq $CQ -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}/{.metadata.generation}')" "9/1"
[ "$(k get cq $CQ -o jsonpath='{.spec.stopPolicy}')" = Hold ] && bad "stopPolicy stored"
expect_eq "lq" "$(k get localqueues -o name)" "localqueue.kueue.x-k8s.io/user-queue"
expect_eq "namespace" "$(k get ns default -o jsonpath='{.status.phase}')" "Active"
expect_eq "no label" "$(k get workloads -l x=y -o name)" ""
expect_eq "resourceVersion" "$(list_rv)" "$rv0"
expect_eq "events" "$(k get events -A -o name | wc -l)" "$events0"
# the watch saw nothing; a real write shows it is alive
k label cq $CQ real=yes >/dev/null 2>&1 || bad "real label"
wait_for "watch alive" "grep -c '\"real\":\"yes\"' '$tmp/watch.out'" "1"
expect_eq "watch events" "$(grep -o '"type":"[A-Z]*"' "$tmp/watch.out" | grep -c .)" "1"
kill "$wpid" 2>/dev/null

# a dry-run DELETE answers what kube-apiserver would store
# (updateForGracefulDeletionAndFinalizers): the object with its
# deletionTimestamp and finalizers when some would hold it (the
# policy's, Kueue's) and its generation one more (markAsDeleting), a
# Status when it would go at once; a Namespace, Terminating
U=http://127.0.0.1:$PORT
shape() {
	python3 -c 'import json,sys
d=json.load(sys.stdin); m=d.get("metadata",{})
print(d["kind"], m.get("finalizers"), "deletionTimestamp" in m, m.get("deletionGracePeriodSeconds"), d["status"].get("phase") if d["kind"]=="Namespace" else m.get("generation"))'
}
ddel() { # ddel PATH POLICY
	curl -s -X DELETE -H 'Content-Type: application/json' "$U$1?dryRun=All" -d "{\"propagationPolicy\":\"$2\"}" | shape
}
J=/apis/batch/v1/namespaces/default/jobs
expect_eq "Foreground" "$(ddel $J/job2 Foreground)" "Job ['foregroundDeletion'] True 0 2"
expect_eq "Orphan" "$(ddel $J/job2 Orphan)" "Job ['orphan'] True 0 2"
expect_eq "Background, no finalizer: a Status" "$(ddel $J/job2 Background)" "Status None False None None"
expect_eq "Kueue's finalizer holds a ClusterQueue" "$(ddel /apis/kueue.x-k8s.io/v1beta2/clusterqueues/$CQ Background)" "ClusterQueue ['kueue.x-k8s.io/resource-in-use'] True 0 2"
expect_eq "a Namespace" "$(curl -s -X DELETE "$U/api/v1/namespaces/dry-ns?dryRun=All" | shape)" "Namespace None True None Terminating"
# Background takes the collector's finalizer off: nothing holds it, no
# deletionTimestamp, and the object is the answer still
job_create jo user-queue 1 orphan
expect_eq "Background over orphan" "$(ddel $J/jo Background)" "Job None False None 1"
expect_eq "nothing marked" "$(k get job job2 jo -o jsonpath='{.items[*].metadata.deletionTimestamp}{.items[*].metadata.finalizers}')" '["orphan"]'
stop || bad "stop"
finish
