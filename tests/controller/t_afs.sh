#!/bin/sh
# Admission fair sharing in the controller: a LocalQueue of a
# UsageBasedAdmissionFairSharing ClusterQueue carries its decayed usage in
# status.fairSharing.admissionFairSharingStatus (the entry penalty of its
# admitted Job at once), and that status seeds it again after a restart,
# as Kueue's LocalQueue controller seeds its ledger from it; the status
# moves every sampling interval on its own.
suite=afs
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/m"
cp "$ROOT/examples/simulate/fair-queues.yaml" "$tmp/m/"
start a --db "$tmp/a.db" --manifests "$tmp/m" || exit 1
cat >"$tmp/job.yaml" <<'YAML'
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: research, labels: {kueue.x-k8s.io/queue-name: vision}}
spec:
  parallelism: 4
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox, resources: {limits: {nvidia.com/gpu: "1"}}}]
YAML
k create -f "$tmp/job.yaml" >/dev/null 2>&1 || bad "create the Job"
k wait --for=condition=Admitted workload --all -n research --timeout=10s >/dev/null 2>&1 || bad "admitted"
lq() {
	k get localqueue "$1" -n research \
		-o 'jsonpath={.status.fairSharing.admissionFairSharingStatus.consumedResources.nvidia\.com/gpu}' 2>&1
}
# 4 GPUs x (1 - 0.5^(1m / 10m)) = 0.267876..., plus the decay towards 4
# GPUs over the second or so since the queue was made (0.0004 a second)
in_range() {
	case "$1" in *n) ;; *) return 1 ;; esac
	v=${1%n}
	[ "$v" -ge 267876000 ] && [ "$v" -le 275000000 ]
}
v1=$(lq vision)
in_range "$v1" && ok || bad "vision's consumed GPUs after the admission: '$v1'"
expect_eq "speech has used nothing" "$(k get localqueue speech -n research -o 'jsonpath={.status.fairSharing.admissionFairSharingStatus.consumedResources}' 2>&1)" '{}'
stop || bad "stop"
start b --db "$tmp/a.db" || exit 1
v2=$(lq vision)
expect_eq "vision's consumed GPUs after a restart" "$v2" "$v1"
stop || bad "stop"

# Kueue's LocalQueue reconciler samples every usageSamplingInterval
# (RequeueAfter), so the status moves on its own, nothing else changing:
# with a 1s interval, lastUpdate and the consumed GPUs of vision (decaying
# towards the 4 it holds) move within a couple of seconds
mkdir -p "$tmp/m2"
sed 's/usageSamplingInterval: 1m/usageSamplingInterval: 1s/' \
	"$ROOT/examples/simulate/fair-queues.yaml" >"$tmp/m2/fair-queues.yaml"
grep -q 'usageSamplingInterval: 1s' "$tmp/m2/fair-queues.yaml" || bad "fixture"
start c --db "$tmp/c.db" --manifests "$tmp/m2" || exit 1
k create -f "$tmp/job.yaml" >/dev/null 2>&1 || bad "create the Job (c)"
k wait --for=condition=Admitted workload --all -n research --timeout=10s >/dev/null 2>&1 || bad "admitted (c)"
last() {
	k get localqueue vision -n research \
		-o 'jsonpath={.status.fairSharing.admissionFairSharingStatus.lastUpdate}' 2>&1
}
l1=$(last)
c1=$(lq vision)
sleep 2.5
l2=$(last)
c2=$(lq vision)
[ -n "$l1" ] && [ "$l1" != "$l2" ] && ok || bad "lastUpdate did not move: '$l1' then '$l2'"
[ -n "$c1" ] && [ "$c1" != "$c2" ] && ok || bad "consumed GPUs did not move: '$c1' then '$c2'"
stop || bad "stop"
finish
