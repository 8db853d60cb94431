#!/bin/sh
# The built-in Workload schema with real kubectl: a Workload created
# without the CRD's defaulted fields is served with them (spec.active,
# podSets[].name and count, a container port's protocol), in either
# version; a misspelled field is refused under Strict, warned about and
# pruned under Warn; unknown pod template fields are kept (the template
# is preserve-unknown-fields past what is modelled); `kubectl explain`
# describes workload.spec.podSets; a Job's Workload still gets admitted
# (tests/controller/lib.sh).
suite=wlschema
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"

wl() {
	cat <<EOF
apiVersion: kueue.x-k8s.io/$1
kind: Workload
metadata:
  name: $2
  namespace: default
spec:
  queueName: user-queue
  $3
  podSets:
  - template:
      spec:
        restartPolicy: Never
        schedulerName: custom
        containers:
        - name: c
          image: busybox
          ports:
          - containerPort: 8080
          resources:
            requests:
              cpu: "1"
EOF
}

# defaults filled in on create, visible in -o yaml
wl v1beta2 plain "" >"$tmp/plain.yaml"
k create -f "$tmp/plain.yaml" >/dev/null 2>&1 || bad "create plain"
y=$(k get workload plain -o yaml)
expect_has "active" "$y" "active: true"
expect_has "podSet name" "$y" "name: main"
expect_has "podSet count" "$y" "count: 1"
expect_has "port protocol" "$y" "protocol: TCP"
expect_eq "defaults" "$(k get workload plain -o jsonpath='{.spec.active}/{.spec.podSets[0].name}/{.spec.podSets[0].count}/{.spec.podSets[0].template.spec.containers[0].ports[0].protocol}')" "true/main/1/TCP"
# the template's fields past the modelled ones are kept
expect_eq "template kept" "$(k get workload plain -o jsonpath='{.spec.podSets[0].template.spec.restartPolicy}/{.spec.podSets[0].template.spec.schedulerName}')" "Never/custom"
# v1beta1: the same defaults, and v1beta1's priorityClassSource
wl v1beta1 old "" >"$tmp/old.yaml"
k create -f "$tmp/old.yaml" >/dev/null 2>&1 || bad "create v1beta1"
expect_eq "v1beta1 defaults" "$(k get workloads.v1beta1.kueue.x-k8s.io old -o jsonpath='{.spec.active}/{.spec.podSets[0].name}/{.spec.podSets[0].count}/{.spec.podSets[0].template.spec.containers[0].ports[0].protocol}')" "true/main/1/TCP"
# server-side apply without the defaulted fields (podSets keyed by a
# defaulted name), twice: defaulted, and the second changes nothing
wl v1beta2 ssa "" >"$tmp/ssa.yaml"
k apply --server-side -f "$tmp/ssa.yaml" >/dev/null 2>&1 || bad "ssa"
k apply --server-side -f "$tmp/ssa.yaml" >/dev/null 2>&1 || bad "ssa again"
k replace -f "$tmp/ssa.yaml" >/dev/null 2>&1 || bad "replace"
expect_eq "ssa defaults" "$(k get workload ssa -o jsonpath='{.spec.podSets[0].name}/{.spec.podSets[0].count}/{.spec.podSets[0].template.spec.containers[0].ports[0].protocol}/{.metadata.generation}')" "main/1/TCP/1"
# a value set is kept
wl v1beta2 inactive "active: false" >"$tmp/off.yaml"
k create -f "$tmp/off.yaml" >"$tmp/out" 2>&1 || bad "create off: $(cat "$tmp/out")"
expect_eq "set kept" "$(k get workload inactive -o jsonpath='{.spec.active}')" "false"

# a misspelled top-level spec field: Strict refuses it, Warn prunes it
wl v1beta2 typo "queueNmae: x" >"$tmp/typo.yaml"
out=$(k create -f "$tmp/typo.yaml" 2>&1)
expect_has "strict" "$out" 'Workload in version "v1beta2" cannot be handled as a Workload: strict decoding error: unknown field "spec.queueNmae"'
k get workload typo >/dev/null 2>&1 && bad "strict create stored"
out=$(k create --validate=warn -f "$tmp/typo.yaml" 2>&1)
expect_has "warn" "$out" 'Warning: unknown field "spec.queueNmae"'
expect_eq "warn pruned" "$(k get workload typo -o jsonpath='{.spec.queueNmae}|{.spec.queueName}')" "|user-queue"
# a v1beta2-only field in a v1beta1 body is unknown there
wl v1beta1 gates "preemptionGates: [{name: g}]" >"$tmp/gates.yaml"
out=$(k create -f "$tmp/gates.yaml" 2>&1)
expect_has "v1beta1 strict" "$out" 'strict decoding error: unknown field "spec.preemptionGates"'
# server-side apply refuses it whatever --validate says
out=$(k apply --server-side --validate=false -f "$tmp/typo.yaml" 2>&1)
expect_has "apply" "$out" '.spec.queueNmae: field not declared in schema'

# kubectl explain reads the published schema
out=$(k explain workload.spec.podSets 2>&1)
expect_has "explain" "$out" "KIND:       Workload"
expect_has "explain count" "$out" "count	<integer>"
expect_has "explain template" "$out" "template	<Object> -required-"
out=$(k explain workload.spec.podSets.template.spec.containers.ports 2>&1)
expect_has "explain protocol" "$out" "protocol	<string>"

# the Job path: the Job is defaulted as kube-apiserver defaults a
# built-in kind (api_jobdef.c), its Workload as its schema says, and it
# is admitted as before
sed 's/^        resources:/        ports: [{containerPort: 80}]\n        resources:/' "$EX/job1.yaml" >"$tmp/job.yaml"
k create -f "$tmp/job.yaml" >/dev/null 2>&1 || bad "create job1"
wait_for "admitted" "k get job job1 -o jsonpath='{.spec.suspend}'" "false"
jw() { k get workloads -o jsonpath="{range .items[?(@.metadata.ownerReferences)]}$1{end}"; }
expect_eq "job workload" "$(jw '{.spec.active}/{.spec.podSets[0].template.spec.containers[0].ports[0].protocol}')" "true/TCP"
expect_eq "job defaulted" "$(k get job job1 -o jsonpath='{.spec.template.spec.containers[0].ports[0]}')" '{"containerPort":80,"protocol":"TCP"}'
rv=$(jw '{.metadata.resourceVersion}')
stop || bad "stop"
# read back after a restart, nothing to rewrite
start b --db "$tmp/a.db" || exit 1
expect_eq "restart defaults" "$(k get workload plain -o jsonpath='{.spec.podSets[0].name}/{.spec.podSets[0].template.spec.containers[0].ports[0].protocol}')" "main/TCP"
sleep 0.3
expect_eq "job workload not rewritten" "$(jw '{.metadata.resourceVersion}')" "$rv"
stop || bad "stop b"
finish
