#!/bin/sh
# The Workload webhook's rules that Kueue's feature gates switch, on by
# default (AdmissionGatedBy, beta since v0.19): a Workload created with a
# malformed kueue.x-k8s.io/admission-gated-by annotation is refused as
# Kueue's vworkload.kb.io refuses it; with the Configuration's
# featureGates turning AdmissionGatedBy off, the annotation is not
# checked.  The controller checked none of the gated rules.
suite=wlgates
. "$(dirname "$0")/lib.sh"

wl() { # wl NAME GATES: a Workload with that annotation
	cat <<YAML
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: $1
  namespace: default
  annotations: {kueue.x-k8s.io/admission-gated-by: "$2"}
spec:
  queueName: lq
  podSets:
  - name: main
    count: 1
    template:
      spec:
        containers:
        - name: c
          resources: {requests: {cpu: "1"}}
YAML
}

start a --db "$tmp/a.db" || exit 1
out=$(wl bad "example.com/a,example.com/a" | k create -f - 2>&1) && bad "a gate named twice was accepted"
expect_has "refused by Kueue's webhook" "$out" 'admission webhook "vworkload.kb.io" denied the request'
expect_has "at the annotation" "$out" "metadata.annotations[kueue.x-k8s.io/admission-gated-by]: Invalid value"
expect_has "says why" "$out" "duplicate gate name: example.com/a"
out=$(wl good "example.com/a" | k create -f - 2>&1) || bad "a well-formed gate refused: $out"
stop
expect_eq "stop" "$?" "0"

# AdmissionGatedBy off: the annotation means nothing, nothing checks it
mkdir -p "$tmp/m"
cat >"$tmp/m/config.yaml" <<'YAML'
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
featureGates: {AdmissionGatedBy: false}
YAML
start b --db "$tmp/b.db" --manifests "$tmp/m" || exit 1
out=$(wl bad "example.com/a,example.com/a" | k create -f - 2>&1) || bad "checked with the gate off: $out"
stop
expect_eq "stop b" "$?" "0"
finish
