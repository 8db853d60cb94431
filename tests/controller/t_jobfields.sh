#!/bin/sh
# Unknown fields of a Job, as kube-apiserver's decoding into its Go types
# treats them (fieldValidation): kubectl create -f (Strict) refuses a
# typo in the Job, its spec, pod template, pod spec, containers or their
# resources with every field named; --validate=warn stores the Job
# without them and says each in a Warning; --validate=false drops them
# silently; server-side apply refuses them whatever is asked.  A Job with
# `resource:` for `resources:` was stored as written and admitted with
# no requests.  Fields are named in the order of the body kubectl sends
# (its keys sorted), as the decoder meets them (tests/controller/lib.sh).
suite=jobfields
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k apply -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "setup"
cat >"$tmp/typo.yaml" <<'Y'
apiVersion: batch/v1
kind: Job
metadata:
  name: typo
  labelz: {a: b}
  labels: {kueue.x-k8s.io/queue-name: user-queue}
spec:
  parallelizm: 2
  template:
    metadata:
      labels: {app: x}
    spec:
      restartPolicy: Never
      nodeSelectorr: {a: b}
      containers:
      - name: main
        image: busybox
        resource:
          requests: {cpu: "1"}
        resources:
          requests: {cpu: "1"}
          limitz: {cpu: "2"}
Y
expect_eq "strict" "$(k create -f "$tmp/typo.yaml" 2>&1)" \
	"Error from server (BadRequest): error when creating \"$tmp/typo.yaml\": Job in version \"v1\" cannot be handled as a Job: strict decoding error: unknown field \"metadata.labelz\", unknown field \"spec.parallelizm\", unknown field \"spec.template.spec.containers[0].resource\", unknown field \"spec.template.spec.containers[0].resources.limitz\", unknown field \"spec.template.spec.nodeSelectorr\""
expect_eq "not stored" "$(k get jobs -o name 2>&1)" ""
out=$(k create -f "$tmp/typo.yaml" --validate=warn 2>&1)
expect_has "warned" "$out" 'Warning: unknown field "spec.template.spec.containers[0].resource"'
expect_has "created" "$out" "job.batch/typo created"
expect_eq "dropped" "$(k get job typo -o jsonpath='{.spec.parallelizm}{.metadata.labelz}{.spec.template.spec.containers[0].resource}{.spec.template.spec.containers[0].resources}')" \
	'{"requests":{"cpu":"1"}}'
k delete job typo >/dev/null 2>&1 || bad "delete"
expect_eq "silent" "$(k create -f "$tmp/typo.yaml" --validate=false 2>&1)" "job.batch/typo created"
expect_eq "dropped silently" "$(k get job typo -o jsonpath='{.spec.parallelizm}')" ""
out=$(k apply --server-side -f "$tmp/typo.yaml" 2>&1)
expect_has "apply" "$out" ".spec.template.spec.containers[0].resource: field not declared in schema"
# a Job without typos is as it was
expect_eq "clean" "$(k create -f "$EX/job2.yaml" 2>&1)" "job.batch/job2 created"
stop || bad "stop"
finish
