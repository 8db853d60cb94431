#!/bin/sh
# An update (PUT) of a Kueue object must name the resourceVersion it
# replaces, as kube-apiserver asks of a custom resource (its strategy
# does not allow unconditional updates): 422 `metadata.resourceVersion:
# Invalid value: 0x0: must be specified for an update`, where it was
# taken as it came.  Jobs and Namespaces may (kube allows them); kubectl
# replace fetches the version itself; --manifests restarts update
# without one (tests/controller/lib.sh).
suite=unconditional
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/m" && cp "$EX/setup.yaml" "$tmp/m/"
start a --db "$tmp/a.db" --manifests "$tmp/m" || exit 1
U=http://127.0.0.1:$PORT
put() {
	curl -s -X PUT -H 'Content-Type: application/json' --data-binary "$2" "$U$1" |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("code", "ok"), d.get("message", d.get("metadata", {}).get("name")))'
}
expect_eq "no resourceVersion" \
	"$(put /apis/kueue.x-k8s.io/v1beta2/resourceflavors/default-flavor '{"metadata":{"name":"default-flavor","labels":{"a":"b"}}}')" \
	'422 resourceflavors.kueue.x-k8s.io "default-flavor" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update'
expect_eq "not applied" "$(k get rf default-flavor -o jsonpath='{.metadata.labels}')" ""
rv=$(k get rf default-flavor -o jsonpath='{.metadata.resourceVersion}')
expect_eq "with it" \
	"$(put /apis/kueue.x-k8s.io/v1beta2/resourceflavors/default-flavor "{\"metadata\":{\"name\":\"default-flavor\",\"resourceVersion\":\"$rv\",\"labels\":{\"a\":\"b\"}}}")" \
	"ok default-flavor"
expect_eq "namespace without" \
	"$(put /api/v1/namespaces/default '{"metadata":{"name":"default","labels":{"a":"b"}}}')" "ok default"
expect_eq "kubectl replace" "$(k replace -f "$EX/setup.yaml" 2>&1 | head -1)" \
	"resourceflavor.kueue.x-k8s.io/default-flavor replaced"
stop || bad "stop"
# a restart updates from --manifests without a version
start b --db "$tmp/a.db" --manifests "$tmp/m" || exit 1
expect_eq "restart" "$(k get cq -o name)" "clusterqueue.kueue.x-k8s.io/cluster-queue"
stop || bad "stop b"
finish
