#!/bin/sh
# Unknown fields of a Job, as kube-apiserver's decoding into its Go types
# treats them (fieldValidation): kubectl create -f (Strict) refuses a
# typo in the Job, its spec, pod template, pod spec, containers or their
# resources with every field named; --validate=warn stores the Job
# without them and says each in a Warning; --validate=false drops them
# silently; server-side apply refuses them whatever is asked.  The whole
# Job is checked, pod template included (ports, env, volumes, affinity,
# probes...), as every Go struct of it is strictly decoded.  A Job with
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
# typos deeper in the pod template: ports, env sources, volumes,
# affinity, tolerations, probes, security context, and in the Job's
# podFailurePolicy (they were stored as written, never named)
cat >"$tmp/deep.yaml" <<'Y'
apiVersion: batch/v1
kind: Job
metadata:
  name: deep
  labels: {kueue.x-k8s.io/queue-name: user-queue}
spec:
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodez: {operator: In, values: [1]}
  template:
    spec:
      restartPolicy: Never
      securityContext: {runAsUsr: 1000}
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressionz: [{key: a, operator: Exists}]
      tolerations:
      - {key: a, operator: Exists, efect: NoSchedule}
      volumes:
      - name: scratch
        emptyDir: {medum: Memory}
      containers:
      - name: main
        image: busybox
        ports: [{containerPor: 80}]
        env:
        - name: NODE
          valueFrom: {fieldRef: {fieldPth: spec.nodeName}}
        livenessProbe: {httpGet: {path: /, prot: 80}}
        resources:
          requests: {cpu: "1"}
Y
expect_eq "deep strict" "$(k create -f "$tmp/deep.yaml" 2>&1)" \
	"Error from server (BadRequest): error when creating \"$tmp/deep.yaml\": Job in version \"v1\" cannot be handled as a Job: strict decoding error: unknown field \"spec.podFailurePolicy.rules[0].onExitCodez\", unknown field \"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressionz\", unknown field \"spec.template.spec.containers[0].env[0].valueFrom.fieldRef.fieldPth\", unknown field \"spec.template.spec.containers[0].livenessProbe.httpGet.prot\", unknown field \"spec.template.spec.containers[0].ports[0].containerPor\", unknown field \"spec.template.spec.securityContext.runAsUsr\", unknown field \"spec.template.spec.tolerations[0].efect\", unknown field \"spec.template.spec.volumes[0].emptyDir.medum\""
out=$(k create -f "$tmp/deep.yaml" --validate=warn 2>&1)
expect_has "deep warned" "$out" 'Warning: unknown field "spec.template.spec.volumes[0].emptyDir.medum"'
expect_eq "deep dropped" "$(k get job deep -o jsonpath='{.spec.template.spec.volumes[0].emptyDir}{.spec.template.spec.containers[0].ports[0]}')" '{}{"protocol":"TCP"}'
# a patch (kubectl patch sends no fieldValidation: Warn) warns and drops
out=$(k patch job deep --type=merge -p '{"spec":{"template":{"spec":{"tolerations":[{"key":"b","operator":"Exists","tolerationSeconds":5,"efect":"NoExecute"}]}}}}' 2>&1)
expect_has "patch warned" "$out" 'Warning: unknown field "spec.template.spec.tolerations[0].efect"'
expect_eq "patch dropped" "$(k get job deep -o jsonpath='{.spec.template.spec.tolerations[0]}')" '{"key":"b","operator":"Exists","tolerationSeconds":5}'
# a Job without typos is as it was
expect_eq "clean" "$(k create -f "$EX/job2.yaml" 2>&1)" "job.batch/job2 created"
stop || bad "stop"
finish
