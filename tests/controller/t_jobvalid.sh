#!/bin/sh
# A Job kube-apiserver would not store is refused as it refuses it: a
# field of the wrong JSON type is its decoding error (400), and its
# validation's causes are a 422 Invalid: no restartPolicy (defaulted to
# Always, which a Job may not have), no containers, a container without
# a name or an image, two of one name, negative counts, an unknown
# completionMode; on create, update and patch alike (a status write is
# not validated); such Jobs were stored, and admitted
# (tests/controller/lib.sh).
suite=jobvalid
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k apply -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "setup"
U=http://127.0.0.1:$PORT
JOBS=/apis/batch/v1/namespaces/default/jobs
post() {
	curl -s -X POST -H 'Content-Type: application/json' --data-binary "$1" "$U$JOBS" |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("code"), d.get("message"))'
}
expect_eq "string count" \
	"$(post '{"metadata":{"name":"t1"},"spec":{"parallelism":"x","template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"i"}]}}}}')" \
	'400 Job in version "v1" cannot be handled as a Job: json: cannot unmarshal string into Go struct field JobSpec.spec.parallelism of type int32'
expect_eq "list for a map" \
	"$(post '{"metadata":{"name":"t2"},"spec":{"template":[]}}')" \
	'400 Job in version "v1" cannot be handled as a Job: json: cannot unmarshal array into Go struct field JobSpec.spec.template of type v1.PodTemplateSpec'
expect_eq "bool" \
	"$(post '{"metadata":{"name":"t3"},"spec":{"suspend":"yes","template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"i"}]}}}}')" \
	'400 Job in version "v1" cannot be handled as a Job: json: cannot unmarshal string into Go struct field JobSpec.spec.suspend of type bool'
cat >"$tmp/norestart.yaml" <<'Y'
apiVersion: batch/v1
kind: Job
metadata:
  name: norestart
  labels: {kueue.x-k8s.io/queue-name: user-queue}
spec:
  template:
    spec:
      containers:
      - name: main
        image: busybox
Y
expect_eq "no restartPolicy" "$(k create -f "$tmp/norestart.yaml" 2>&1)" \
	'The Job "norestart" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'
cat >"$tmp/bad.yaml" <<'Y'
apiVersion: batch/v1
kind: Job
metadata: {name: bad}
spec:
  parallelism: -1
  completionMode: Sometimes
  template:
    spec:
      restartPolicy: Sometimes
      containers:
      - name: a
      - name: a
        image: x
Y
expect_eq "every cause" "$(k create -f "$tmp/bad.yaml" 2>&1)" \
	'The Job "bad" is invalid: 
* spec.parallelism: Invalid value: -1: must be greater than or equal to 0
* spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"
* spec.template.spec.containers[0].image: Required value
* spec.template.spec.containers[1].name: Duplicate value: "a"
* spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "OnFailure", "Never"'
printf 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: empty}\nspec:\n  template:\n    spec: {restartPolicy: Never}\n' >"$tmp/empty.yaml"
expect_eq "no containers" "$(k create -f "$tmp/empty.yaml" 2>&1)" \
	'The Job "empty" is invalid: spec.template.spec.containers: Required value'
out=$(curl -s -X POST -H 'Content-Type: application/json' --data-binary '{"metadata":{"name":"e2"},"spec":{"template":{"spec":{"restartPolicy":"Never"}}}}' "$U$JOBS")
expect_has "details" "$out" '"details":{"name":"e2","group":"batch","kind":"Job","causes":[{"reason":"FieldValueRequired","message":"Required value","field":"spec.template.spec.containers"}]}'
expect_eq "nothing stored" "$(k get jobs,workloads -o name 2>&1)" ""
# a valid Job; a patch that breaks it is refused, one that does not works
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1"
expect_eq "patch refused" \
	"$(k patch job job1 --type=merge -p '{"spec":{"template":{"spec":{"restartPolicy":"Always"}}}}' 2>&1)" \
	'The Job "job1" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'
expect_eq "kept" "$(k get job job1 -o jsonpath='{.spec.template.spec.restartPolicy}')" "Never"
expect_eq "label" "$(k label job job1 x=y 2>&1)" "job.batch/job1 labeled"
# kubectl create job sets restartPolicy OnFailure
expect_eq "kubectl create job" "$(k create job cj --image=busybox -- true 2>&1)" "job.batch/cj created"
stop || bad "stop"
finish
