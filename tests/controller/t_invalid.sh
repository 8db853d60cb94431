#!/bin/sh
# A write kube-apiserver would refuse as invalid is a 422 Invalid as it
# words one: `Kind.group "name" is invalid: [field: what, ...]` with
# details.kind, name, group and a cause per field, so kubectl prints
# `The ClusterQueue "cq" is invalid:` and each field (it printed "The
# request is invalid" and the message without a field before); what
# the CRD schema refuses is said in kube-apiserver's words (field.Error
# bodies with kube-openapi's details: `Unsupported value: "Bogus":
# supported values: ...`, `in body must be of type string`, `in body
# should match '...'`, `Required value`) and cause types, where the
# model's own words were (tests/controller/lib.sh).
suite=invalid
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k apply -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "setup"
U=http://127.0.0.1:$PORT
CQ=/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cluster-queue
expect_eq "kubectl says the field" \
	"$(k patch cq cluster-queue --type=merge -p '{"spec":{"stopPolicy":"Bogus"}}' 2>&1)" \
	'The ClusterQueue "cluster-queue" is invalid: spec.stopPolicy: Unsupported value: "Bogus": supported values: "None", "Hold", "HoldAndDrain"'
expect_eq "two fields" \
	"$(k patch cq cluster-queue --type=merge -p '{"spec":{"stopPolicy":"Bogus","queueingStrategy":4}}' 2>&1)" \
	'The ClusterQueue "cluster-queue" is invalid: 
* spec.queueingStrategy: Invalid value: "integer": spec.queueingStrategy in body must be of type string: "integer"
* spec.queueingStrategy: Unsupported value: 4: supported values: "StrictFIFO", "BestEffortFIFO"
* spec.stopPolicy: Unsupported value: "Bogus": supported values: "None", "Hold", "HoldAndDrain"'
expect_eq "a field in a list" \
	"$(k patch cq cluster-queue --type=merge -p '{"spec":{"resourceGroups":[{"coveredResources":["cpu"],"flavors":[{"name":"default-flavor","resources":[{"name":"cpu","nominalQuota":"abc"}]}]}]}}' 2>&1)" \
	"The ClusterQueue \"cluster-queue\" is invalid: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Invalid value: \"abc\": spec.resourceGroups[0].flavors[0].resources[0].nominalQuota in body should match '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?\$'"
# a name the schema's pattern refuses (it was accepted), a required
# field missing, a string too long
expect_eq "pattern" \
	"$(k patch cq cluster-queue --type=merge -p '{"spec":{"cohortName":"Bad_x"}}' 2>&1)" \
	"The ClusterQueue \"cluster-queue\" is invalid: spec.cohortName: Invalid value: \"Bad_x\": spec.cohortName in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\$'"
expect_eq "required" \
	"$(k patch cq cluster-queue --type=json -p '[{"op":"remove","path":"/spec/resourceGroups/0/flavors/0/name"}]' 2>&1)" \
	'The ClusterQueue "cluster-queue" is invalid: spec.resourceGroups[0].flavors[0].name: Required value'
long=$(printf 'a%.0s' $(seq 1 254))
expect_eq "too long" \
	"$(k patch cq cluster-queue --type=merge -p "{\"spec\":{\"cohortName\":\"$long\"}}" 2>&1)" \
	'The ClusterQueue "cluster-queue" is invalid: spec.cohortName: Too long: may not be more than 253 bytes'
printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: rf2}\nspec: {nodeLabels: x}\n' >"$tmp/rf2.yaml"
expect_eq "type named" "$(k create -f "$tmp/rf2.yaml" 2>&1)" \
	'The ResourceFlavor "rf2" is invalid: spec.nodeLabels: Invalid value: "string": spec.nodeLabels in body must be of type object: "string"'
# a name as kube checks it: a Namespace's is a DNS label, others' a
# DNS subdomain, in IsDNS1123Label's and IsDNS1123Subdomain's words
expect_eq "namespace name" "$(k create namespace Bad_Name 2>&1)" \
	"The Namespace \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
expect_eq "namespace dots" "$(k create namespace a.b 2>&1)" \
	'The Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots'
printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: Bad_F}\n' >"$tmp/badf.yaml"
expect_eq "subdomain" "$(k create -f "$tmp/badf.yaml" 2>&1)" \
	"The ResourceFlavor \"Bad_F\" is invalid: metadata.name: Invalid value: \"Bad_F\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
# the Status itself
out=$(curl -s -X PATCH -H 'Content-Type: application/merge-patch+json' \
	--data-binary '{"spec":{"stopPolicy":"Bogus","queueingStrategy":4}}' "$U$CQ")
expect_eq "status" "$out" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ClusterQueue.kueue.x-k8s.io \"cluster-queue\" is invalid: [spec.queueingStrategy: Invalid value: \"integer\": spec.queueingStrategy in body must be of type string: \"integer\", spec.queueingStrategy: Unsupported value: 4: supported values: \"StrictFIFO\", \"BestEffortFIFO\", spec.stopPolicy: Unsupported value: \"Bogus\": supported values: \"None\", \"Hold\", \"HoldAndDrain\"]","reason":"Invalid","code":422,"details":{"name":"cluster-queue","group":"kueue.x-k8s.io","kind":"ClusterQueue","causes":[{"reason":"FieldValueTypeInvalid","message":"Invalid value: \"integer\": spec.queueingStrategy in body must be of type string: \"integer\"","field":"spec.queueingStrategy"},{"reason":"FieldValueNotSupported","message":"Unsupported value: 4: supported values: \"StrictFIFO\", \"BestEffortFIFO\"","field":"spec.queueingStrategy"},{"reason":"FieldValueNotSupported","message":"Unsupported value: \"Bogus\": supported values: \"None\", \"Hold\", \"HoldAndDrain\"","field":"spec.stopPolicy"}]}}'
# what Kueue's validating webhook refuses (after the schema) is kube's
# wrapping of its denial: 403 Forbidden, `admission webhook "NAME" denied
# the request:` and Kueue's field errors, several bracketed
NQ=/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota
expect_eq "webhook" \
	"$(k patch cq cluster-queue --type=json -p "[{\"op\":\"replace\",\"path\":\"$NQ\",\"value\":\"-1\"}]" 2>&1)" \
	'Error from server (Forbidden): admission webhook "vclusterqueue.kb.io" denied the request: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Invalid value: "-1": must be greater than or equal to 0'
out=$(curl -s -X PATCH -H 'Content-Type: application/merge-patch+json' \
	--data-binary '{"spec":{"cohortName":"c","resourceGroups":[{"coveredResources":["cpu","memory"],"flavors":[{"name":"default-flavor","resources":[{"name":"cpu","nominalQuota":1,"lendingLimit":2},{"name":"gpu","nominalQuota":"-5"}]}]},{"coveredResources":["cpu"],"flavors":[{"name":"default-flavor","resources":[{"name":"cpu","nominalQuota":"-1e3"}]}]}]}}' "$U$CQ")
expect_eq "webhook status" "$out" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"admission webhook \"vclusterqueue.kb.io\" denied the request: [spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value: \"2\": must be less than or equal to the nominalQuota, spec.resourceGroups[0].flavors[0].resources[1].name: Invalid value: \"gpu\": must match the name in coveredResources, spec.resourceGroups[0].flavors[0].resources[1].nominalQuota: Invalid value: \"-5\": must be greater than or equal to 0, spec.resourceGroups[1].coveredResources[0]: Duplicate value: \"cpu\", spec.resourceGroups[1].flavors[0].resources[0].nominalQuota: Invalid value: \"-1e3\": must be greater than or equal to 0, spec.resourceGroups[1].flavors[0].name: Duplicate value: \"default-flavor\"]","reason":"Forbidden","code":403}'
# a Cohort's webhook: its own name, its fairSharing at spec.fairSharing
printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: co}\nspec: {fairSharing: {weight: "-1"}}\n' >"$tmp/co.yaml"
expect_eq "cohort webhook" "$(k create -f "$tmp/co.yaml" 2>&1)" \
	"Error from server (Forbidden): error when creating \"$tmp/co.yaml\": admission webhook \"vcohort.kb.io\" denied the request: spec.fairSharing: Invalid value: \"-1\": must be greater than or equal to 0"
# what the webhooks cannot decode (Go's ParseQuantity refuses it) is
# their Errored(400): a create's mutating webhook sees it before the
# schema; an update's validating one after it (text the CRD's pattern
# takes, with an exponent beyond int64)
sed 's/nominalQuota: 9$/nominalQuota: lots/; s/name: cluster-queue/name: cq-new/' "$EX/setup.yaml" >"$tmp/lots.yaml"
expect_has "create: mutating decodes" "$(k create -f "$tmp/lots.yaml" 2>&1)" \
	"Error from server: error when creating \"$tmp/lots.yaml\": admission webhook \"mclusterqueue.kb.io\" denied the request: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)\$'"
out=$(curl -s -X PATCH -H 'Content-Type: application/json-patch+json' \
	--data-binary "[{\"op\":\"replace\",\"path\":\"$NQ\",\"value\":\"1e99999999999999999999\"}]" "$U$CQ")
expect_eq "update: validating decodes" "$out" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"admission webhook \"vclusterqueue.kb.io\" denied the request: unable to parse quantity'"'"'s suffix","reason":"","code":400}'
# a ResourceFlavor's webhook: node labels, taints (a key and effect
# once), tolerations' keys
cat >"$tmp/rf.yaml" <<'EOF'
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: rf-bad}
spec:
  nodeLabels: {"ok": "bad value!"}
  nodeTaints:
  - {key: "a", value: "x", effect: NoSchedule}
  - {key: "a", value: "y", effect: NoSchedule}
  - {key: "a", value: "y", effect: NoExecute}
  tolerations:
  - {key: "b", operator: Exists}
  - {key: "bad key!", operator: Exists}
EOF
out=$(k create -f "$tmp/rf.yaml" 2>&1) && bad "a bad flavor created"
expect_has "flavor webhook" "$out" 'admission webhook "vresourceflavor.kb.io" denied the request: [spec.nodeLabels: Invalid value: "bad value!": a valid label must be an empty string'
expect_has "flavor: taint once" "$out" 'spec.nodeTaints[1]: Duplicate value: v1.Taint{Key:"a", Value:"y", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair, spec.tolerations[1].key: Invalid value: "bad key!": name part must consist of'
expect_eq "flavor: not stored" "$(k get rf rf-bad -o name 2>&1)" 'Error from server (NotFound): resourceflavors.kueue.x-k8s.io "rf-bad" not found'
# a Workload's webhook: its pod sets' template labels, reserved and
# negative resources, minCount on one pod set at most
cat >"$tmp/wl.yaml" <<'EOF'
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: wl-bad, namespace: default}
spec:
  queueName: user-queue
  podSets:
  - name: main
    count: 1
    minCount: 1
    template:
      metadata: {labels: {"bad key!": "x"}}
      spec:
        restartPolicy: Never
        containers:
        - {name: c, image: busybox, resources: {requests: {cpu: "-1", pods: "1"}}}
  - name: b
    count: 2
    minCount: 1
    template:
      spec:
        restartPolicy: Never
        containers: [{name: c, image: busybox}]
EOF
expect_eq "workload webhook" "$(k create -f "$tmp/wl.yaml" 2>&1 | sed 's/(e.g. .*)//')" \
	"Error from server (Forbidden): error when creating \"$tmp/wl.yaml\": admission webhook \"vworkload.kb.io\" denied the request: [spec.podSets[0].template.metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character , spec.podSets[0].template.spec.containers[0].resources.requests[cpu]: Invalid value: \"-1\": must be greater than or equal to 0, spec.podSets[0].template.spec.containers[0].resources.requests[pods]: Invalid value: pods: the key is reserved for internal kueue use, spec.podSets: Invalid value: 2: at most one podSet can use minCount]"
# the CRDs' CEL rules are the schema's: 422 at the rule's node
expect_eq "cel" \
	"$(k patch cq cluster-queue --type=json -p '[{"op":"add","path":"/spec/resourceGroups/0/flavors/0/resources/0/borrowingLimit","value":"2"}]' 2>&1)" \
	'The ClusterQueue "cluster-queue" is invalid: spec: Invalid value: "object": borrowingLimit must be nil when cohort is empty'
# transition rules (oldSelf): a LocalQueue's clusterQueue and a
# ResourceFlavor's topologyName are immutable (they were changed)
expect_eq "cel: immutable clusterQueue" \
	"$(k patch lq user-queue --type=merge -p '{"spec":{"clusterQueue":"other"}}' 2>&1)" \
	'The LocalQueue "user-queue" is invalid: spec.clusterQueue: Invalid value: "string": field is immutable'
expect_eq "clusterQueue kept" "$(k get lq user-queue -o jsonpath='{.spec.clusterQueue}')" "cluster-queue"
printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: topo}\nspec: {nodeLabels: {a: b}, topologyName: t1}\n' | k create -f - >/dev/null 2>&1 ||
	bad "create topo"
expect_eq "cel: immutable topologyName" \
	"$(k patch rf topo --type=json -p '[{"op":"remove","path":"/spec/topologyName"}]' 2>&1)" \
	'The ResourceFlavor "topo" is invalid: spec: Invalid value: "object": topologyName is immutable when topologyName is set'
k patch rf default-flavor --type=merge -p '{"spec":{"nodeLabels":{"a":"b"},"topologyName":"t"}}' >/dev/null 2>&1 ||
	bad "setting a topologyName where there was none"
expect_eq "cel in a list" \
	"$(k patch cq cluster-queue --type=json -p '[{"op":"remove","path":"/spec/resourceGroups/0/flavors/0/resources/1"}]' 2>&1)" \
	'The ClusterQueue "cluster-queue" is invalid: spec.resourceGroups[0]: Invalid value: "object": flavors must have the same number of resources as the coveredResources'
expect_eq "unchanged" "$(k get cq cluster-queue -o jsonpath='{.spec.stopPolicy}/{.spec.cohortName}')" "None/"
# a v1beta1 write is checked as kube checks it, in v1beta1: its causes
# name v1beta1's fields (spec.cohort, not v1beta2's spec.cohortName),
# its schema's pattern; a create, an update and a patch alike
pat="'^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\$'"
printf 'apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: cq-b1}\nspec: {cohort: Bad_x, namespaceSelector: {}}\n' >"$tmp/b1.yaml"
expect_eq "v1beta1 create" "$(k create -f "$tmp/b1.yaml" 2>&1)" \
	"The ClusterQueue \"cq-b1\" is invalid: spec.cohort: Invalid value: \"Bad_x\": spec.cohort in body should match $pat"
expect_eq "v1beta1 patch" \
	"$(k patch clusterqueues.v1beta1.kueue.x-k8s.io cluster-queue --type=merge -p '{"spec":{"cohort":"Bad_x"}}' 2>&1)" \
	"The ClusterQueue \"cluster-queue\" is invalid: spec.cohort: Invalid value: \"Bad_x\": spec.cohort in body should match $pat"
out=$(curl -s "$U/apis/kueue.x-k8s.io/v1beta1/clusterqueues/cluster-queue" |
	sed 's/"namespaceSelector"/"cohort":"Bad_x","namespaceSelector"/' |
	curl -s -X PUT -H 'Content-Type: application/json' --data-binary @- \
		"$U/apis/kueue.x-k8s.io/v1beta1/clusterqueues/cluster-queue")
expect_has "v1beta1 update" "$out" '"causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"Bad_x\": spec.cohort in body should match'
expect_has "v1beta1 update field" "$out" '"field":"spec.cohort"}'
# ... and a v1beta2 write still names v1beta2's
sed 's/v1beta1/v1beta2/; s/cohort:/cohortName:/' "$tmp/b1.yaml" >"$tmp/b2.yaml"
expect_eq "v1beta2 create" "$(k create -f "$tmp/b2.yaml" 2>&1)" \
	"The ClusterQueue \"cq-b1\" is invalid: spec.cohortName: Invalid value: \"Bad_x\": spec.cohortName in body should match $pat"
stop || bad "stop"
finish
