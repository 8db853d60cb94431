#!/bin/sh
# A key repeated in a JSON body, as kube-apiserver answers it: read
# whatever fieldValidation says (sigs.k8s.io/json keeps reading), refused
# under Strict with kube's strict decoding error, warned about under Warn
# (the default), silent under Ignore.  What the repeated key keeps is
# what kube's decoder keeps: a Job (a Go struct) has the second value
# decoded into the first (maps and objects merge, a list's elements
# merge, scalars are replaced), a Kueue object and any patch (a map) the
# last value whole.  A server-side apply body is read by goyaml:
# `line N: key "x" already set in map` under Strict.
suite=dupkeys
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
U=http://127.0.0.1:$PORT

# req METHOD TYPE PATH BODY: the answer's body in $tmp/body, its headers
# in $tmp/head, its status printed
req() {
	curl -s -o "$tmp/body" -D "$tmp/head" -w '%{http_code}' -X "$1" \
		-H "Content-Type: $2" --data-binary "$4" "$U$3"
}
warnings() { grep -i '^warning:' "$tmp/head" | tr -d '\r'; }

JOB='{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"NAME","namespace":"default","labels":{"kueue.x-k8s.io/queue-name":"user-queue"},"labels":{"team":"a"}},"spec":{"parallelism":1,"parallelism":2,"template":{"spec":{"containers":[{"name":"main","image":"busybox","resources":{"requests":{"cpu":"1"}}}],"containers":[{"image":"alpine"}],"restartPolicy":"Never"}}}}'
job() { printf '%s' "$JOB" | sed "s/NAME/$1/"; }
JOBS=/apis/batch/v1/namespaces/default/jobs

# Strict: 400 with every repeated key's path, nothing stored
code=$(req POST application/json "$JOBS?fieldValidation=Strict" "$(job strict)")
expect_eq "strict code" "$code" 400
expect_has "strict text" "$(cat "$tmp/body")" '"message":"Job in version \"v1\" cannot be handled as a Job: strict decoding error: duplicate field \"metadata.labels\", duplicate field \"spec.parallelism\", duplicate field \"spec.template.spec.containers\""'
k get job strict >/dev/null 2>&1 && bad "strict create stored"

# Warn (the default): stored, one warning a repeated key
code=$(req POST application/json "$JOBS" "$(job warn)")
expect_eq "warn code" "$code" 201
expect_eq "warn warnings" "$(warnings)" 'Warning: 299 - "duplicate field \"metadata.labels\""
Warning: 299 - "duplicate field \"spec.parallelism\""
Warning: 299 - "duplicate field \"spec.template.spec.containers\""'
# decoded into the Go struct: labels merged, the list's element merged
expect_eq "labels merged" "$(k get job warn -o jsonpath='{.metadata.labels.kueue\.x-k8s\.io/queue-name} {.metadata.labels.team}')" "user-queue a"
expect_eq "last scalar" "$(k get job warn -o jsonpath='{.spec.parallelism}')" 2
expect_eq "element merged" "$(k get job warn -o jsonpath='{.spec.template.spec.containers[0].name} {.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].resources.requests.cpu}')" "main alpine 1"

# Ignore: stored, nothing said
code=$(req POST application/json "$JOBS?fieldValidation=Ignore" "$(job ignore)")
expect_eq "ignore code" "$code" 201
expect_eq "ignore silent" "$(warnings)" ""

# a Kueue object is decoded into a map: the last value, whole
RF='{"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ResourceFlavor","metadata":{"name":"rf","labels":{"a":"1"},"labels":{"b":"2"}}}'
RFS=/apis/kueue.x-k8s.io/v1beta2/resourceflavors
code=$(req POST application/json "$RFS?fieldValidation=Strict" "$RF")
expect_eq "cr strict code" "$code" 400
expect_has "cr strict text" "$(cat "$tmp/body")" 'ResourceFlavor in version \"v1beta2\" cannot be handled as a ResourceFlavor: strict decoding error: duplicate field \"metadata.labels\"'
code=$(req POST application/json "$RFS" "$RF")
expect_eq "cr warn code" "$code" 201
expect_eq "cr last whole" "$(k get resourceflavor rf -o jsonpath='{.metadata.labels}')" '{"b":"2"}'

# patches are maps too: merge patch, JSON patch (its ops named so)
code=$(req PATCH application/merge-patch+json "$RFS/rf?fieldValidation=Strict" '{"metadata":{"labels":{"c":"3"},"labels":{"d":"4"}}}')
expect_eq "merge strict code" "$code" 422
expect_has "merge strict text" "$(cat "$tmp/body")" 'patch: Invalid value: \"...\": strict decoding error: duplicate field \"metadata.labels\"'
code=$(req PATCH application/merge-patch+json "$RFS/rf" '{"metadata":{"labels":{"c":"3"},"labels":{"d":"4"}}}')
expect_eq "merge warn code" "$code" 200
expect_eq "merge warn warning" "$(warnings)" 'Warning: 299 - "duplicate field \"metadata.labels\""'
expect_eq "merge last whole" "$(k get resourceflavor rf -o jsonpath='{.metadata.labels}')" '{"b":"2","d":"4"}'
code=$(req PATCH application/json-patch+json "$RFS/rf?fieldValidation=Strict" '[{"op":"add","path":"/metadata/labels/e","value":"5","value":"6"}]')
expect_eq "json patch strict code" "$code" 422
expect_has "json patch strict text" "$(cat "$tmp/body")" 'strict decoding error: json patch duplicate field \"[0].value\"'
code=$(req PATCH application/json-patch+json "$RFS/rf?fieldValidation=Ignore" '[{"op":"add","path":"/metadata/labels/e","value":"5","value":"6"}]')
expect_eq "json patch ignore code" "$code" 200
expect_eq "json patch last" "$(k get resourceflavor rf -o jsonpath='{.metadata.labels.e}')" 6

# server-side apply: goyaml's words, the value's line
APPLY='{"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ResourceFlavor",
"metadata":{"name":"rf"},"metadata":{"name":"rf"}}'
code=$(req PATCH application/apply-patch+yaml "$RFS/rf?fieldManager=t&fieldValidation=Strict" "$APPLY")
expect_eq "apply strict code" "$code" 400
expect_has "apply strict text" "$(cat "$tmp/body")" '"message":"error strict decoding patch: error converting YAML to JSON: yaml: unmarshal errors:\n  line 2: key \"metadata\" already set in map"'
code=$(req PATCH application/apply-patch+yaml "$RFS/rf?fieldManager=t" "$APPLY")
expect_eq "apply warn code" "$code" 200

# still malformed JSON is 400 as before, with jansson's words
code=$(req POST application/json "$JOBS" '{"a":1,"a":2')
expect_eq "malformed code" "$code" 400
expect_has "malformed text" "$(cat "$tmp/body")" "malformed JSON body"
# a NUL byte, which JSON allows nowhere and Go's decoder refuses: 400,
# nothing stored (jansson read up to it and took a repeated key's last)
printf '{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"nul","name":"nul"},"spec":{}}\000' >"$tmp/nul.json"
code=$(curl -s -o "$tmp/body" -w '%{http_code}' -X POST -H 'Content-Type: application/json' --data-binary @"$tmp/nul.json" "$U$JOBS")
expect_eq "NUL byte code" "$code" 400
expect_has "NUL byte text" "$(cat "$tmp/body")" "invalid character"
k get job nul >/dev/null 2>&1 && bad "NUL-byte body stored"
stop
expect_eq "stop" "$?" "0"
finish
