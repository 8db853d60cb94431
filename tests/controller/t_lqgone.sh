#!/bin/sh
# A ClusterQueue forced out (its finalizers emptied by hand while a job
# holds its quota): its LocalQueue turns inactive (ClusterQueueDoesNotExist)
# and counts no reservation, admission or usage, as Kueue's
# Cache.LocalQueueUsage gives empty stats without the ClusterQueue.
suite=lqgone
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1"
wait_for "job1 counted" "k get lq user-queue -o jsonpath='{.status.reservingWorkloads}/{.status.admittedWorkloads}'" "1/1"
k delete cq cluster-queue --wait=false >/dev/null 2>&1 || bad "delete cq"
k patch cq cluster-queue --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || bad "empty the cq's finalizers"
expect_has "cq gone" "$(k get cq cluster-queue 2>&1)" "NotFound"
wait_for "lq inactive" "k get lq user-queue -o jsonpath='{.status.conditions[0].reason}'" "ClusterQueueDoesNotExist"
expect_eq "lq counts nothing" "$(k get lq user-queue -o jsonpath='{.status.reservingWorkloads}/{.status.admittedWorkloads}/{.status.flavorsReservation}/{.status.flavorsUsage}')" "0/0//"
stop
expect_eq "stop" "$?" "0"
finish
