#!/bin/sh
# A Job as kube-apiserver defaults it (a built-in kind: pkg/apis/batch/v1
# and core/v1 defaults.go, the Job strategy's generateSelector): the
# defaults of the Job and of its pod template, the selector and pod
# labels a new Job gets, values given kept, defaults given again on an
# update that leaves them out; Kueue copies the defaulted template into
# the Workload.  A Job created without labels has its template's at once
# (kube defaults it again as it reads it back from storage), not after
# its first update, which they made a change.
suite=jobdefaults
. "$(dirname "$0")/lib.sh"

j() { k get job "$1" ${2:+-n "$2"} -o jsonpath="$3"; }
start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1"
uid=$(j job1 "" '{.metadata.uid}')
[ -n "$uid" ] || bad "job1 has no uid"
expect_eq "job spec" "$(j job1 "" '{.spec.backoffLimit} {.spec.completionMode} {.spec.podReplacementPolicy} {.spec.selector.matchLabels}')" \
	"6 NonIndexed TerminatingOrFailed {\"batch.kubernetes.io/controller-uid\":\"$uid\"}"
expect_eq "pod labels" "$(j job1 "" '{.spec.template.metadata.labels}')" \
	"{\"batch.kubernetes.io/controller-uid\":\"$uid\",\"batch.kubernetes.io/job-name\":\"job1\",\"controller-uid\":\"$uid\",\"job-name\":\"job1\"}"
pod='{.dnsPolicy} {.restartPolicy} {.schedulerName} {.securityContext} {.terminationGracePeriodSeconds} {.containers[0].imagePullPolicy} {.containers[0].terminationMessagePath} {.containers[0].terminationMessagePolicy}'
want="ClusterFirst Never default-scheduler {} 30 Always /dev/termination-log File"
expect_eq "pod spec" "$(k get job job1 -o jsonpath="$(echo "$pod" | sed 's/{\./{.spec.template.spec./g')")" "$want"
wl=$(k get workloads -o jsonpath='{.items[0].metadata.name}')
expect_eq "workload's pod spec" "$(k get workload "$wl" -o jsonpath="$(echo "$pod" | sed 's/{\./{.spec.podSets[0].template.spec./g')")" "$want"
expect_eq "workload's pod labels" "$(k get workload "$wl" -o jsonpath='{.spec.podSets[0].template.metadata.labels.job-name}')" "job1"

# given values kept; a tag, a digest; a pod failure policy; neither
# completions nor parallelism; the template's labels as the Job's; a
# manual selector (kube-system: not Kueue's)
cat >"$tmp/j2.yaml" <<EOJ
apiVersion: batch/v1
kind: Job
metadata: {name: j2, namespace: kube-system}
spec:
  backoffLimit: 2
  podFailurePolicy:
    rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]
  template:
    metadata: {labels: {app: two}}
    spec:
      restartPolicy: Never
      dnsPolicy: Default
      containers:
      - {name: a, image: "busybox:1.36", ports: [{containerPort: 80}], readinessProbe: {httpGet: {port: 80}}}
      - {name: b, image: "registry.local:5000/busybox@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", imagePullPolicy: Never}
      - {name: c, image: "registry.local:5000/busybox"}
---
apiVersion: batch/v1
kind: Job
metadata: {name: j3, namespace: kube-system}
spec:
  manualSelector: true
  selector: {matchLabels: {app: three}}
  template:
    metadata: {labels: {app: three}}
    spec:
      restartPolicy: Never
      containers: [{name: a, image: busybox}]
EOJ
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: kube-system}\n' | k create -f - >/dev/null 2>&1 ||
	bad "create kube-system"
k create -f "$tmp/j2.yaml" >/dev/null 2>&1 || bad "create j2, j3"
expect_eq "j2 spec" "$(j j2 kube-system '{.spec.backoffLimit} {.spec.completions} {.spec.parallelism} {.spec.podReplacementPolicy} {.metadata.labels.app}')" "2 1 1 Failed two"
expect_eq "j2 containers" "$(j j2 kube-system '{.spec.template.spec.dnsPolicy} {.spec.template.spec.containers[*].imagePullPolicy}')" "Default IfNotPresent Never Always"
expect_eq "j2 port and probe" "$(j j2 kube-system '{.spec.template.spec.containers[0].ports[0].protocol} {.spec.template.spec.containers[0].readinessProbe}')" \
	'TCP {"failureThreshold":3,"httpGet":{"path":"/","port":80,"scheme":"HTTP"},"periodSeconds":10,"successThreshold":1,"timeoutSeconds":1}'
expect_eq "j3 manual selector" "$(j j3 kube-system '{.spec.selector.matchLabels} {.spec.template.metadata.labels}')" '{"app":"three"} {"app":"three"}'

# an update that leaves a default out gets it again
k patch job j2 -n kube-system --type=json -p '[{"op":"remove","path":"/spec/backoffLimit"},{"op":"remove","path":"/spec/template/spec/terminationGracePeriodSeconds"}]' >/dev/null 2>&1 ||
	bad "patch j2"
expect_eq "defaulted again" "$(j j2 kube-system '{.spec.backoffLimit} {.spec.template.spec.terminationGracePeriodSeconds}')" "6 30"
# no labels of its own: the template's, the generated ones included
k create job bare -n kube-system --image=busybox >/dev/null 2>&1 || bad "create bare"
buid=$(j bare kube-system '{.metadata.uid}')
expect_eq "bare labels" "$(j bare kube-system '{.metadata.labels}')" \
	"{\"batch.kubernetes.io/controller-uid\":\"$buid\",\"batch.kubernetes.io/job-name\":\"bare\",\"controller-uid\":\"$buid\",\"job-name\":\"bare\"}"
expect_eq "bare no-op patch" "$(k patch job bare -n kube-system -p '{"spec":{"suspend":false}}' 2>&1)" "job.batch/bare patched (no change)"
stop
expect_eq "stop" "$?" "0"
finish
