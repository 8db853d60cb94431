#!/bin/sh
# kubectl get prints the server's Tables (Accept: as=Table;g=meta.k8s.io):
# the Kueue CRDs' printer columns, the built-in printers' columns for
# jobs, namespaces and events, -o wide, a single object, v1beta1, and
# get -w printing its header once (tests/controller/lib.sh).
suite=table
. "$(dirname "$0")/lib.sh"

# one line of kubectl's table with its column padding squeezed
row() {
	sed -n "${1}p" | sed 's/   */  /g; s/ *$//'
}

start a --db "$tmp/a.db" || exit 1
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
for n in 1 2 3 4; do k create -f "$EX/job$n.yaml" >/dev/null 2>&1 || bad "create job$n"; done
wait_for "job4 waits" "k get job job4 -o jsonpath='{.spec.suspend}'" "true"
out=$(k get clusterqueues)
expect_eq "cq header" "$(echo "$out" | row 1)" "NAME  COHORT  PENDING WORKLOADS"
expect_eq "cq row" "$(echo "$out" | row 2)" "cluster-queue  1"
out=$(k get clusterqueues -o wide)
expect_eq "cq wide header" "$(echo "$out" | row 1)" "NAME  COHORT  STRATEGY  PENDING WORKLOADS  ADMITTED WORKLOADS"
expect_eq "cq wide row" "$(echo "$out" | row 2)" "cluster-queue  BestEffortFIFO  1  3"
out=$(k get clusterqueue cluster-queue)
expect_eq "one cq" "$(echo "$out" | row 2)" "cluster-queue  1"
out=$(k get localqueues -A)
expect_eq "lq header" "$(echo "$out" | row 1)" "NAMESPACE  NAME  CLUSTERQUEUE  PENDING WORKLOADS  ADMITTED WORKLOADS"
expect_eq "lq row" "$(echo "$out" | row 2)" "default  user-queue  cluster-queue  1  3"
out=$(k get workloads -A)
expect_eq "wl header" "$(echo "$out" | row 1)" "NAMESPACE  NAME  QUEUE  RESERVED IN  ADMITTED  FINISHED  AGE"
expect_has "wl admitted row" "$(echo "$out" | row 2)" "user-queue  cluster-queue  True"
expect_eq "wl rows" "$(echo "$out" | sed 1d | wc -l)" "4"
# the pending one: no reservation, Admitted False (NoReservation, as
# Kueue's workload controller writes it)
expect_eq "wl pending row" "$(echo "$out" | grep -c 'user-queue  *False  *[0-9]*s$')" "1"
out=$(k get resourceflavors)
expect_eq "rf header" "$(echo "$out" | row 1)" "NAME  AGE"
out=$(k get jobs)
expect_eq "job header" "$(echo "$out" | row 1)" "NAME  STATUS  COMPLETIONS  DURATION  AGE"
expect_has "job running" "$(echo "$out" | row 2)" "job1  Running  0/3  "
expect_has "job suspended" "$(echo "$out" | row 5)" "job4  Suspended  0/3  "
out=$(k get jobs -o wide)
expect_eq "job wide header" "$(echo "$out" | row 1)" "NAME  STATUS  COMPLETIONS  DURATION  AGE  CONTAINERS  IMAGES  SELECTOR"
expect_has "job wide row" "$(echo "$out" | row 2)" "main  busybox  batch.kubernetes.io/controller-uid=$(k get job job1 -o jsonpath='{.metadata.uid}')"
out=$(k get namespaces)
expect_eq "ns header" "$(echo "$out" | row 1)" "NAME  STATUS  AGE"
expect_has "ns row" "$(echo "$out" | row 2)" "default  Active  "
out=$(k get events)
expect_eq "event header" "$(echo "$out" | row 1)" "LAST SEEN  TYPE  REASON  OBJECT  MESSAGE"
expect_has "event row" "$(echo "$out" | row 2)" "Normal  QuotaReserved  workload/job-job1-"
out=$(k get events -o wide)
expect_eq "event wide header" "$(echo "$out" | row 1)" "LAST SEEN  TYPE  REASON  OBJECT  SUBOBJECT  SOURCE  MESSAGE  FIRST SEEN  COUNT  NAME"
# --raw asks for JSON: the list, not a Table
out=$(k get --raw /apis/kueue.x-k8s.io/v1beta2/clusterqueues -v=0 2>&1)
expect_has "plain list" "$out" '"kind":"ClusterQueueList"'
# get -w: the list, then changes as rows under the one header
k get jobs -w >"$tmp/w.out" 2>&1 &
wpid=$!
sleep 1
k delete job job1 >/dev/null 2>&1 || bad "delete job1"
wait_for "job4 runs" "k get job job4 -o jsonpath='{.spec.suspend}'" "false"
sleep 1
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
expect_eq "watch header once" "$(grep -c '^NAME' "$tmp/w.out")" "1"
expect_has "watch row" "$(sed 's/   */  /g' "$tmp/w.out")" "job4  Running  0/3"
stop
finish
