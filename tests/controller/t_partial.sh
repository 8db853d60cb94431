#!/bin/sh
# A Configuration with featureGates PartialAdmission false: a Workload
# created with a minCount is stored without it (Kueue's Workload webhook,
# Default), and so is a Job's Workload whatever its
# kueue.x-k8s.io/job-min-parallelism says (jobframework
# clearMinCountsIfFeatureDisabled); neither is admitted partially
# (tests/controller/lib.sh).
suite=partial
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/m"
cp "$EX/setup.yaml" "$tmp/m/"
printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfeatureGates: {PartialAdmission: false}\n' \
	>"$tmp/m/kueue-config.yaml"
start a --db "$tmp/a.db" --manifests "$tmp/m" || exit 1
cat <<YAML | k create -f - >/dev/null 2>&1 || bad "create wl"
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: wl, namespace: default}
spec:
  queueName: user-queue
  podSets:
  - name: main
    count: 12
    minCount: 2
    template:
      spec:
        restartPolicy: Never
        containers:
        - name: c
          resources:
            requests: {cpu: '1'}
YAML
cat <<YAML | k create -f - >/dev/null 2>&1 || bad "create job"
apiVersion: batch/v1
kind: Job
metadata:
  name: job
  namespace: default
  labels: {kueue.x-k8s.io/queue-name: user-queue}
  annotations: {kueue.x-k8s.io/job-min-parallelism: '2'}
spec:
  parallelism: 12
  completions: 12
  suspend: true
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: c
        image: busybox
        resources:
          requests: {cpu: '1'}
YAML
wait_for "wl waits" "k get workload wl -o jsonpath='{.status.conditions[?(@.type==\"QuotaReserved\")].status}'" "False"
expect_eq "wl: no minCount" "$(k get workload wl -o jsonpath='{.spec.podSets[0].minCount}')" ""
expect_eq "wl: count kept" "$(k get workload wl -o jsonpath='{.spec.podSets[0].count}')" "12"
wait_for "job's workload" "k get workloads -o jsonpath='{range .items[*]}{.metadata.ownerReferences[0].kind};{end}'" "Job;;"
expect_eq "no minCount on either" "$(k get workloads -o jsonpath='{range .items[*]}{.spec.podSets[0].count}/{.spec.podSets[0].minCount};{end}')" "12/;12/;"
expect_eq "job stays suspended" "$(k get job job -o jsonpath='{.spec.suspend}')" "true"
stop || bad "stop"
finish
