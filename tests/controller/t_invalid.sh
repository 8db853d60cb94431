#!/bin/sh
# A write kube-apiserver would refuse as invalid is a 422 Invalid as it
# words one: `Kind.group "name" is invalid: [field: what, ...]` with
# details.kind, name, group and a cause per field, so kubectl prints
# `The ClusterQueue "cq" is invalid:` and each field (it printed "The
# request is invalid" and the message without a field before)
# (tests/controller/lib.sh).
suite=invalid
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k apply -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "setup"
U=http://127.0.0.1:$PORT
CQ=/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cluster-queue
expect_eq "kubectl says the field" \
	"$(k patch cq cluster-queue --type=merge -p '{"spec":{"stopPolicy":"Bogus"}}' 2>&1)" \
	'The ClusterQueue "cluster-queue" is invalid: spec.stopPolicy: unknown value Bogus'
expect_eq "two fields" \
	"$(k patch cq cluster-queue --type=merge -p '{"spec":{"stopPolicy":"Bogus","queueingStrategy":4}}' 2>&1)" \
	'The ClusterQueue "cluster-queue" is invalid: 
* spec.queueingStrategy: queueingStrategy must be a string
* spec.stopPolicy: unknown value Bogus'
expect_eq "a field in a list" \
	"$(k patch cq cluster-queue --type=merge -p '{"spec":{"resourceGroups":[{"coveredResources":["cpu"],"flavors":[{"name":"default-flavor","resources":[{"name":"cpu","nominalQuota":"abc"}]}]}]}}' 2>&1)" \
	'The ClusterQueue "cluster-queue" is invalid: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: nominalQuota "abc" is not a quantity (expected a Kubernetes quantity such as 10, 500m, 1.5 or 2Gi)'
printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: rf2}\nspec: {nodeLabels: x}\n' >"$tmp/rf2.yaml"
expect_eq "type named" "$(k create -f "$tmp/rf2.yaml" 2>&1)" \
	'The ResourceFlavor "rf2" is invalid: spec.nodeLabels: nodeLabels must be a map of strings, not a string'
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
expect_eq "status" "$out" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ClusterQueue.kueue.x-k8s.io \"cluster-queue\" is invalid: [spec.queueingStrategy: queueingStrategy must be a string, spec.stopPolicy: unknown value Bogus]","reason":"Invalid","code":422,"details":{"name":"cluster-queue","group":"kueue.x-k8s.io","kind":"ClusterQueue","causes":[{"reason":"FieldValueInvalid","message":"queueingStrategy must be a string","field":"spec.queueingStrategy"},{"reason":"FieldValueInvalid","message":"unknown value Bogus","field":"spec.stopPolicy"}]}}'
expect_eq "unchanged" "$(k get cq cluster-queue -o jsonpath='{.spec.stopPolicy}')" "None"
stop || bad "stop"
finish
