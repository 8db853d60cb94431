#!/bin/sh
# The group and version of a request, as kube-apiserver checks them: a
# path naming a version the controller does not serve is 404; a body
# whose apiVersion is another version than the URL's (a served one too:
# it is not converted), or one the kind does not have, is refused with
# kube's 400 on create, update and server-side apply, and nothing is
# written; a body of another kind is refused as kube refuses it: a Kueue
# kind's by its validator (422 `kind: Invalid value: "Foo": must be
# ResourceFlavor`), a Job's by its decoder (400 `no kind "Foo" is
# registered`) (tests/controller/lib.sh).
suite=apiversion
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
U=http://127.0.0.1:$PORT
RF=/apis/kueue.x-k8s.io/v1beta2/resourceflavors
# send METHOD PATH BODY [CONTENT-TYPE]: "code message" of the answer
send() {
	curl -s -X "$1" -H "Content-Type: ${4:-application/json}" \
		--data-binary "$3" "$U$2" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d.get("code", 200) if d.get("kind") == "Status" else "ok", d.get("message", d.get("metadata", {}).get("name")))'
}
rf() { printf '{"apiVersion":"%s","kind":"ResourceFlavor","metadata":{"name":"%s"}}' "$1" "$2"; }

# paths: an unknown version of a served group is not found
for p in /apis/kueue.x-k8s.io/v1alpha9 /apis/kueue.x-k8s.io/v1alpha9/resourceflavors \
	/apis/batch/v2/jobs /api/v2/namespaces; do
	expect_eq "GET $p" "$(k get --raw "$p" 2>&1)" \
		"Error from server (NotFound): the server could not find the requested resource"
done
expect_eq "POST unknown version" \
	"$(send POST /apis/kueue.x-k8s.io/v1alpha9/resourceflavors "$(rf kueue.x-k8s.io/v1alpha9 f0)")" \
	"404 the server could not find the requested resource"

# bodies
expect_eq "create another kind" \
	"$(send POST $RF '{"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Foo","metadata":{"name":"f0"}}')" \
	'422 Foo.kueue.x-k8s.io "f0" is invalid: kind: Invalid value: "Foo": must be ResourceFlavor'
expect_eq "create a Job of another kind" \
	"$(send POST /apis/batch/v1/namespaces/default/jobs '{"apiVersion":"batch/v1","kind":"Foo","metadata":{"name":"j0"}}')" \
	'400 Job in version "v1" cannot be handled as a Job: no kind "Foo" is registered for version "batch/v1" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"'
expect_eq "create v1alpha9 body" "$(send POST $RF "$(rf kueue.x-k8s.io/v1alpha9 f1)")" \
	'400 ResourceFlavor in version "v1alpha9" cannot be handled as a ResourceFlavor: request to convert CR from an invalid group/version: kueue.x-k8s.io/v1alpha9'
expect_eq "create v1beta1 body at v1beta2" "$(send POST $RF "$(rf kueue.x-k8s.io/v1beta1 f2)")" \
	'400 the API version in the data (kueue.x-k8s.io/v1beta1) does not match the expected API version (kueue.x-k8s.io/v1beta2)'
expect_eq "create other group" "$(send POST $RF "$(rf batch/v1 f3)")" \
	'400 ResourceFlavor in version "v1" cannot be handled as a ResourceFlavor: batch/v1, Kind=ResourceFlavor is unstructured and is not suitable for converting to "kueue.x-k8s.io"'
expect_eq "create job batch/v2" \
	"$(send POST /apis/batch/v1/namespaces/default/jobs '{"apiVersion":"batch/v2","kind":"Job","metadata":{"name":"j"},"spec":{"template":{"spec":{"containers":[{"name":"c","image":"x"}]}}}}')" \
	'400 Job in version "v2" cannot be handled as a Job: no kind "Job" is registered for version "batch/v2" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"'
expect_eq "create namespace v2" \
	"$(send POST /api/v1/namespaces '{"apiVersion":"v2","kind":"Namespace","metadata":{"name":"n"}}')" \
	'400 Namespace in version "v2" cannot be handled as a Namespace: no kind "Namespace" is registered for version "v2" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"'
expect_eq "nothing created" "$(k get rf,ns -o name 2>&1)" "namespace/default"
# the same with kubectl: a file of another version at kubectl create --raw
rf kueue.x-k8s.io/v1alpha9 f4 >"$tmp/f4.json"
expect_has "kubectl create --raw" "$(k create --raw $RF -f "$tmp/f4.json" 2>&1)" \
	'(BadRequest): ResourceFlavor in version "v1alpha9" cannot be handled as a ResourceFlavor'
# without an apiVersion the URL's is taken; with the URL's it is created
expect_eq "create no apiVersion" "$(send POST $RF '{"kind":"ResourceFlavor","metadata":{"name":"g1"}}')" "ok g1"
expect_eq "create v1beta2" "$(send POST $RF "$(rf kueue.x-k8s.io/v1beta2 g2)")" "ok g2"
# update and server-side apply check the same
expect_eq "update v1alpha9" "$(send PUT $RF/g2 "$(rf kueue.x-k8s.io/v1alpha9 g2)")" \
	'400 ResourceFlavor in version "v1alpha9" cannot be handled as a ResourceFlavor: request to convert CR from an invalid group/version: kueue.x-k8s.io/v1alpha9'
expect_eq "update v1beta1 at v1beta2" "$(send PUT $RF/g2 "$(rf kueue.x-k8s.io/v1beta1 g2)")" \
	'400 the API version in the data (kueue.x-k8s.io/v1beta1) does not match the expected API version (kueue.x-k8s.io/v1beta2)'
rv=$(k get rf g2 -o jsonpath='{.metadata.resourceVersion}')
expect_eq "update v1beta1 at v1beta1" \
	"$(send PUT /apis/kueue.x-k8s.io/v1beta1/resourceflavors/g2 "{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"g2\",\"resourceVersion\":\"$rv\"}}")" "ok g2"
expect_eq "apply v1beta1 at v1beta2" \
	"$(send PATCH "$RF/g3?fieldManager=t" "$(rf kueue.x-k8s.io/v1beta1 g3)" application/apply-patch+yaml)" \
	'400 Incorrect version specified in apply patch. Specified patch version: kueue.x-k8s.io/v1beta1, expected: kueue.x-k8s.io/v1beta2'
expect_eq "apply v1alpha9" \
	"$(send PATCH "$RF/g3?fieldManager=t" "$(rf kueue.x-k8s.io/v1alpha9 g3)" application/apply-patch+yaml)" \
	'400 ResourceFlavor in version "v1alpha9" cannot be handled as a ResourceFlavor: request to convert CR from an invalid group/version: kueue.x-k8s.io/v1alpha9'
expect_eq "flavors" "$(k get rf -o name 2>&1 | tr '\n' ' ')" \
	"resourceflavor.kueue.x-k8s.io/g1 resourceflavor.kueue.x-k8s.io/g2 "
stop || bad "stop"
finish
