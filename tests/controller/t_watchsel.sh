#!/bin/sh
# A watch with a selector sees an object move in and out of it as
# kube-apiserver's watch cache shows it: ADDED when it comes into the
# selection, DELETED (its last state in it, at the change's version) when
# it leaves, MODIFIED while it stays, nothing outside it; live and resumed
# from the history alike.  A change that took an object out of the
# selection was not sent at all, and its return came as MODIFIED, so a
# client kept an object it no longer selected (tests/controller/lib.sh).
suite=watchsel
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
U=http://127.0.0.1:$PORT
k create namespace n1 >/dev/null 2>&1 || bad "create n1"
k label namespace n1 team=a >/dev/null 2>&1 || bad "label n1"
rv0=$(k get namespace n1 -o jsonpath='{.metadata.resourceVersion}')
# "TYPE name team-label resourceVersion" per event
events() {
	sed 's/^{"type":"\([A-Z]*\)".*"name":"\([^"]*\)".*"resourceVersion":"\([0-9]*\)".*/\1 \2 \3/' "$1" | tr '\n' ';'
}
# (waited for by pid: a bare wait would wait for the controller too)
watch() {
	timeout 3 curl -sN "$U/api/v1/namespaces?labelSelector=team%3Da&watch=1&$1" >"$2" &
	watchers="$watchers $!"
}
watchers=""
watch "resourceVersion=$rv0" "$tmp/live.out"
sleep 0.3
k label namespace n1 team=b --overwrite >/dev/null 2>&1 || bad "team=b"
rv1=$(k get namespace n1 -o jsonpath='{.metadata.resourceVersion}')
k label namespace n1 team=a --overwrite >/dev/null 2>&1 || bad "team=a"
rv2=$(k get namespace n1 -o jsonpath='{.metadata.resourceVersion}')
k label namespace n1 x=1 >/dev/null 2>&1 || bad "x=1"
rv3=$(k get namespace n1 -o jsonpath='{.metadata.resourceVersion}')
k label namespace n1 team=c --overwrite >/dev/null 2>&1 || bad "team=c"
rv4=$(k get namespace n1 -o jsonpath='{.metadata.resourceVersion}')
k label namespace n1 y=1 >/dev/null 2>&1 || bad "y=1 (outside)"
want="DELETED n1 $rv1;ADDED n1 $rv2;MODIFIED n1 $rv3;DELETED n1 $rv4;"
# resumed from the history: the same events
watch "resourceVersion=$rv0" "$tmp/resumed.out"
for p in $watchers; do wait "$p"; done
expect_eq "live watch" "$(events "$tmp/live.out")" "$want"
expect_eq "resumed watch" "$(events "$tmp/resumed.out")" "$want"
# the DELETED of an object that left carries its state in the selection
expect_has "left with its last selected state" "$(sed -n 1p "$tmp/live.out")" '"team":"a"'
# kubectl's watch prints the same
out=$(timeout 2 kubectl $S get namespaces -l team=a -w --output-watch-events --no-headers 2>&1 &
	sleep 0.7
	k label namespace n1 team=a --overwrite >/dev/null 2>&1
	sleep 0.3
	k label namespace n1 team=d --overwrite >/dev/null 2>&1
	wait)
expect_eq "kubectl -w" "$(printf '%s\n' "$out" | awk '{print $1, $2}' | tr '\n' ';')" "ADDED n1;DELETED n1;"
stop
expect_eq "stop" "$?" "0"
finish
