#!/bin/sh
# --event-ttl: Events older than it are deleted, as kube-apiserver's
# --event-ttl (1h by default) has etcd drop them, and a watch sees them
# go (DELETED); before, every Event was kept for ever, so a controller
# that ran for months served (and stored) all of them
# (tests/controller/lib.sh).
suite=eventttl
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" --event-ttl 3s || exit 1
U=http://127.0.0.1:$PORT
k apply -f "$EX/preempt.yaml" >/dev/null 2>&1 || bad "apply preempt.yaml"
k apply -f "$EX/low.yaml" >/dev/null 2>&1 || bad "apply low.yaml"
wait_for "low runs" "k get job -n team-a low -o jsonpath='{.spec.suspend}'" "false"
n=$(k get events -A -o name | wc -l)
[ "$n" -ge 2 ] && ok || bad "the Events of low's admission: $n, want 2 or more"
timeout 7 curl -sN "$U/api/v1/events?watch=1" >"$tmp/w.out" 2>/dev/null &
wpid=$!
i=0
while [ "$(k get events -A -o name | wc -l)" -gt 0 ] && [ $i -lt 150 ]; do
	sleep 0.1
	i=$((i + 1))
done
expect_eq "Events after the TTL" "$(k get events -A -o name | wc -l)" "0"
wait "$wpid" 2>/dev/null
expect_eq "a watch sees each go" "$(grep -c '"type":"DELETED"' "$tmp/w.out")" "$n"
stop || bad "stop"
# the deletion is stored: a restart does not bring them back
start b --db "$tmp/a.db" --event-ttl 3s || exit 1
expect_eq "none after a restart" "$(k get events -A -o name | wc -l)" "0"
stop || bad "stop b"
"$QF" controller --db "$tmp/c.db" --event-ttl -1s >/dev/null 2>"$tmp/c.err"
expect_eq "a negative TTL exit" "$?" "2"
finish
