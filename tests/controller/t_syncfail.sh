#!/bin/sh
# GitOps when the repository goes away: /metrics says so
# (quotaflow_sync_failures_total counts the polls that could not read
# it, quotaflow_sync_last_success_timestamp_seconds stays at the last one
# that did), the log says it once, not at every poll, and says once that
# it reads again when it is back; the policy in force stays
# (tests/controller/lib.sh).
suite=syncfail
. "$(dirname "$0")/lib.sh"
git_policy
g add -A && g commit -qm one
git clone -q --bare "$tmp/work" "$tmp/bare.git"
start a --db "$tmp/g.db" --git-repo "$tmp/bare.git" --git-ref main \
	--git-path policy --sync-interval 100ms || exit 1
metric() { k get --raw /metrics | sed -n "s/^$1 //p"; }
wait_for "policy applied" "k get cq -o name" "clusterqueue.kueue.x-k8s.io/cluster-queue"
expect_eq "no failure" "$(metric quotaflow_sync_failures_total)" "0"
t0=$(metric quotaflow_sync_last_success_timestamp_seconds)
now=$(date +%s)
[ "$t0" -gt $((now - 30)) ] && [ "$t0" -le "$now" ] && ok ||
	bad "last success $t0, now $now"
if command -v promtool >/dev/null 2>&1; then
	k get --raw /metrics >"$tmp/m1.txt"
	promtool check metrics <"$tmp/m1.txt" >"$tmp/p1.out" 2>&1 || bad "promtool: $(cat "$tmp/p1.out")"
fi
# the repository disappears: every poll fails, the log says it once
mv "$tmp/bare.git" "$tmp/gone.git"
sleep 1.2
f=$(metric quotaflow_sync_failures_total)
[ "$f" -ge 5 ] && ok || bad "failures: $f after 1.2 s of 100 ms polls"
t1=$(metric quotaflow_sync_last_success_timestamp_seconds)
sleep 1.1
expect_eq "last success stays" "$(metric quotaflow_sync_last_success_timestamp_seconds)" "$t1"
expect_eq "said once" "$(grep -c '"msg":"sync: ' "$tmp/a.log")" "1"
expect_has "says why" "$(grep '"msg":"sync: ' "$tmp/a.log")" "bare.git"
expect_eq "policy stays" "$(k get cq -o name)" "clusterqueue.kueue.x-k8s.io/cluster-queue"
# it comes back: said once, the timestamp moves on
mv "$tmp/gone.git" "$tmp/bare.git"
wait_for "reads again" "grep -c 'reads again' '$tmp/a.log'" "1"
sleep 1.1
t2=$(metric quotaflow_sync_last_success_timestamp_seconds)
[ "$t2" -gt "$t1" ] && ok || bad "last success $t2 not after $t1"
expect_eq "recovery said once" "$(grep -c 'reads again' "$tmp/a.log")" "1"
f2=$(metric quotaflow_sync_failures_total)
sleep 0.5
expect_eq "no more failures" "$(metric quotaflow_sync_failures_total)" "$f2"
# the ref goes (the repository reads): another failure, said once more
head=$(git -C "$tmp/bare.git" rev-parse main)
git -C "$tmp/bare.git" update-ref -d refs/heads/main
wait_for "ref failure said" "grep -c '\"msg\":\"sync: .*main' '$tmp/a.log'" "1"
sleep 0.5
expect_eq "said twice in all" "$(grep -c '"msg":"sync: .*retried' "$tmp/a.log")" "2"
git -C "$tmp/bare.git" update-ref refs/heads/main "$head"
wait_for "reads again twice" "grep -c 'reads again' '$tmp/a.log'" "2"
stop || bad "stop"
# without --git-repo there is no timestamp to speak of
start b --db "$tmp/b.db" || exit 1
expect_eq "no timestamp without gitops" "$(k get --raw /metrics | grep -c '^quotaflow_sync_last_success_timestamp_seconds ')" "0"
expect_eq "failures at 0" "$(metric quotaflow_sync_failures_total)" "0"
stop || bad "stop b"
finish
