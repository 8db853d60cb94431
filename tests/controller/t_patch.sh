#!/bin/sh
# Writes beyond create and merge patches: kubectl patch --type=json (RFC
# 6902, a failed test and a bad pointer are kube's generic 422), deletecollection with a
# selector (kubectl delete --raw on the collection), kubectl delete --all,
# server-side apply (kubectl apply --server-side: create, apply again,
# conflicts with another applier or with an update's manager, force,
# shared values, fields no longer applied removed); a write that changes
# nothing leaves the object as it was
# (tests/controller/lib.sh).
suite=patch
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
CQ=cluster-queue
out=$(k patch clusterqueue $CQ --type=json -p '[{"op":"test","path":"/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota","value":9},{"op":"replace","path":"/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota","value":"4"},{"op":"add","path":"/metadata/labels","value":{"team":"a"}}]' 2>&1)
expect_eq "json patch" "$out" "clusterqueue.kueue.x-k8s.io/$CQ patched"
expect_eq "json patch value" "$(k get cq $CQ -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}')" "4"
expect_eq "json patch label" "$(k get cq -l team=a -o name)" "clusterqueue.kueue.x-k8s.io/$CQ"
expect_eq "generation" "$(k get cq $CQ -o jsonpath='{.metadata.generation}')" "2"
# an operation that does not apply: kube-apiserver's answer to any error
# of json-patch's Apply (NewGenericServerResponse: 422, its own words,
# empty details), whatever the operation was
generic="The request is invalid: the server rejected our request due to an error in our request"
out=$(k patch clusterqueue $CQ --type=json -p '[{"op":"test","path":"/spec/cohortName","value":"x"}]' 2>&1) &&
	bad "failed test accepted"
expect_eq "test fails" "$out" "$generic"
out=$(k patch clusterqueue $CQ --type=json -p '[{"op":"remove","path":"spec"}]' 2>&1)
expect_eq "bad pointer" "$out" "$generic"
out=$(k patch clusterqueue $CQ --type=json -p '[{"op":"remove","path":"/spec/nope"}]' 2>&1)
expect_eq "missing path" "$out" "$generic"
out=$(curl -s -X PATCH -H 'Content-Type: application/json-patch+json' \
	--data-binary '[{"op":"test","path":"/spec/cohortName","value":"x"}]' \
	"http://127.0.0.1:$PORT/apis/kueue.x-k8s.io/v1beta2/clusterqueues/$CQ")
expect_eq "the Status" "$out" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server rejected our request due to an error in our request","reason":"Invalid","code":422,"details":{}}'
# what does not decode as operations is 400 in Go's words: kube's own
# type under Strict and Warn (kubectl patch sends neither: Warn), the
# json-patch library's under Ignore
out=$(k patch clusterqueue $CQ --type=json -p '{"op":"add"}' 2>&1)
expect_eq "not a list" "$out" "Error from server (BadRequest): error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"
out=$(k patch clusterqueue $CQ --type=json -p '[{"op":5}]' 2>&1)
expect_eq "op not a string" "$out" "Error from server (BadRequest): error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string"
out=$(curl -s -X PATCH -H 'Content-Type: application/json-patch+json' --data-binary '[true]' \
	"http://127.0.0.1:$PORT/apis/kueue.x-k8s.io/v1beta2/clusterqueues/$CQ?fieldValidation=Ignore")
expect_has "ignore: json-patch's type" "$out" '"message":"json: cannot unmarshal bool into Go value of type jsonpatch.Operation","reason":"BadRequest","code":400'
# a patch the schema or Kueue's webhook refuses is refused whole
out=$(k patch clusterqueue $CQ --type=json -p '[{"op":"replace","path":"/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota","value":"lots"}]' 2>&1)
expect_has "schema refuses" "$out" "nominalQuota: Invalid value: \"lots\": spec.resourceGroups[0].flavors[0].resources[0].nominalQuota in body should match"
out=$(k patch clusterqueue $CQ --type=json -p '[{"op":"replace","path":"/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota","value":"-1"}]' 2>&1)
expect_eq "webhook refuses" "$out" 'Error from server (Forbidden): admission webhook "vclusterqueue.kb.io" denied the request: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Invalid value: "-1": must be greater than or equal to 0'
expect_eq "unchanged" "$(k get cq $CQ -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}')" "4"
# ... and the engine keeps the ClusterQueue it had: a Job in it runs (the
# old object was put back into the model, then deleted from it: 281d661)
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1"
wait_for "refused patch keeps cq" "k get job job1 -o jsonpath='{.spec.suspend}'" "false"
k patch job nope --type=json -p '[]' >/dev/null 2>&1 && bad "patch of a missing job"
ok
# deletecollection: the selected ones go, the answer lists them
for n in 2 3 4; do k create -f "$EX/job$n.yaml" >/dev/null 2>&1 || bad "create job$n"; done
k label job job1 job2 pick=yes >/dev/null 2>&1 || bad "label"
# (in the background: without a policy batch/v1 Jobs orphan, as in kube)
out=$(k delete --raw "/apis/batch/v1/namespaces/default/jobs?labelSelector=pick%3Dyes&propagationPolicy=Background" 2>&1)
expect_has "deletecollection answer" "$out" '"kind":"JobList"'
expect_eq "deletecollection left" "$(k get jobs -o name | tr '\n' ' ')" "job.batch/job3 job.batch/job4 "
# the deleted Jobs' Workloads went with them (kube's garbage collector)
expect_eq "owned workloads gone" "$(k get workloads -o jsonpath='{.items[*].metadata.ownerReferences[0].name}')" "job3 job4"
uids=$(k get workloads -n default -o jsonpath='{.items[*].metadata.uid}')
out=$(k delete workloads --all -n default 2>&1)
expect_eq "delete --all" "$(echo "$out" | grep -c deleted)" "2"
# Kueue's Job reconciler makes the Jobs new ones (new uids)
expect_eq "jobs' workloads made again" "$(k get workloads -o jsonpath='{.items[*].metadata.ownerReferences[0].name}')" "job3 job4"
for u in $uids; do
	case " $(k get workloads -n default -o jsonpath='{.items[*].metadata.uid}') " in
	*" $u "*) bad "workload uid $u kept" ;;
	esac
done
k delete jobs --all -n default >/dev/null 2>&1 || bad "delete jobs"
expect_eq "no workloads" "$(k get workloads -n default -o name | wc -l)" "0"
out=$(k delete --raw "/apis/kueue.x-k8s.io/v1beta2/clusterqueues?labelSelector=a%20in" 2>&1)
expect_has "bad selector" "$out" "BadRequest"
# server-side apply: creates, applies again, owns what it applied
k delete clusterqueue $CQ >/dev/null 2>&1 || bad "delete cq"
out=$(k apply --server-side -f "$EX/setup.yaml" 2>&1)
expect_has "ssa create" "$out" "clusterqueue.kueue.x-k8s.io/$CQ serverside-applied"
out=$(k apply --server-side -f "$EX/setup.yaml" 2>&1)
expect_has "ssa again" "$out" "clusterqueue.kueue.x-k8s.io/$CQ serverside-applied"
expect_eq "ssa generation" "$(k get cq $CQ -o jsonpath='{.metadata.generation}')" "1"
expect_eq "ssa manager" "$(k get cq $CQ --show-managed-fields -o jsonpath='{.metadata.managedFields[0].manager}/{.metadata.managedFields[0].operation}')" "kubectl/Apply"
# another manager changing an owned field conflicts; force takes it
sed 's/nominalQuota: 9/nominalQuota: 5/' "$EX/setup.yaml" >"$tmp/five.yaml"
out=$(k apply --server-side --field-manager=other -f "$tmp/five.yaml" 2>&1)
expect_has "ssa conflict" "$out" "Apply failed with 1 conflict"
expect_has "ssa conflict field" "$out" "kubectl: .spec.resourceGroups"
expect_eq "conflict unchanged" "$(k get cq $CQ -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}')" "9"
out=$(k apply --server-side --field-manager=other --force-conflicts -f "$tmp/five.yaml" 2>&1)
expect_has "ssa force" "$out" "serverside-applied"
expect_eq "forced value" "$(k get cq $CQ -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}')" "5"
# the same value is shared, not a conflict
out=$(k apply --server-side --field-manager=third -f "$tmp/five.yaml" 2>&1)
expect_has "ssa co-own" "$out" "serverside-applied"
# a field an applier stops applying goes (nobody else owns it)
sed 's/^  name: cluster-queue$/  name: cluster-queue\n  labels:\n    tier: gold/' "$tmp/five.yaml" >"$tmp/label.yaml"
k apply --server-side --field-manager=other -f "$tmp/label.yaml" >/dev/null 2>&1 || bad "ssa label"
expect_eq "ssa label set" "$(k get cq $CQ -o jsonpath='{.metadata.labels.tier}')" "gold"
k apply --server-side --field-manager=other -f "$tmp/five.yaml" >/dev/null 2>&1 || bad "ssa unlabel"
expect_eq "ssa label gone" "$(k get cq $CQ -o jsonpath='{.metadata.labels.tier}')" ""
# an update by another manager (kubectl label) owns what it changed
k label cq $CQ tier=silver >/dev/null 2>&1 || bad "label"
out=$(k apply --server-side --field-manager=other -f "$tmp/label.yaml" 2>&1)
expect_has "update owner conflict" "$out" "kubectl-label: .metadata.labels.tier"
# apply without a fieldManager: kube's 422 on PatchOptions, in details
out=$(curl -s -X PATCH -H 'Content-Type: application/apply-patch+yaml' \
	--data-binary '{"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ResourceFlavor","metadata":{"name":"rf-x"}}' \
	"http://127.0.0.1:$PORT/apis/kueue.x-k8s.io/v1beta2/resourceflavors/rf-x")
expect_eq "apply without manager" "$out" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch","reason":"Invalid","code":422,"details":{"group":"meta.k8s.io","kind":"PatchOptions","causes":[{"reason":"FieldValueRequired","message":"Required value: is required for apply patch","field":"fieldManager"}]}}'
# a Job applied twice (strategic: containers merge by name)
out=$(k apply --server-side -f "$EX/job3.yaml" 2>&1)
expect_has "ssa job" "$out" "job.batch/job3 serverside-applied"
out=$(k apply --server-side -f "$EX/job3.yaml" 2>&1)
expect_has "ssa job again" "$out" "job.batch/job3 serverside-applied"
# a write that changes nothing changes nothing, a second later too: the
# field manager's time moves only with a change (it moved, so the
# resourceVersion did and kubectl said "patched")
k patch cq $CQ --type=merge -p '{"metadata":{"labels":{"idle":"a"}}}' >/dev/null 2>&1 || bad "label idle"
rv=$(k get cq $CQ -o jsonpath='{.metadata.resourceVersion}')
sleep 1.1
expect_eq "no-op patch" "$(k patch cq $CQ --type=merge -p '{"metadata":{"labels":{"idle":"a"}}}' 2>&1)" \
	"clusterqueue.kueue.x-k8s.io/$CQ patched (no change)"
rv2=$(k get cq $CQ -o jsonpath='{.metadata.resourceVersion}')
out=$(k apply --server-side -f "$EX/job3.yaml" 2>&1)
rv3=$(k get job job3 -o jsonpath='{.metadata.resourceVersion}')
sleep 1.1
k apply --server-side -f "$EX/job3.yaml" >/dev/null 2>&1 || bad "ssa job no-op"
expect_eq "no-op writes keep the version" "$rv2 $(k get job job3 -o jsonpath='{.metadata.resourceVersion}')" "$rv $rv3"
stop
finish
