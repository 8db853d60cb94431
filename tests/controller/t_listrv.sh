#!/bin/sh
# resourceVersion and resourceVersionMatch on lists, as kube-apiserver
# answers them (unset or "0": now; N: not older than N; Exact: the state
# at N, from the watch history, 410 once dropped; a future version 504;
# the forbidden combinations 422), chunked lists as one snapshot, and
# watch bookmarks with allowWatchBookmarks=true (tests/controller/lib.sh).
suite=listrv
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" --watch-history 20 || exit 1
WPC=/apis/kueue.x-k8s.io/v1beta2/workloadpriorityclasses
mk() {
	printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata:\n  name: %s\nvalue: %s\n' "$1" "$2" |
		k create -f - >/dev/null 2>&1 || bad "create $1"
}
rv_of() { k get wpc "$1" -o jsonpath='{.metadata.resourceVersion}'; }
# "name=value ..." and the list's resourceVersion
show() {
	k get --raw "$WPC?$1" 2>&1 | python3 -c '
import json, sys
t = sys.stdin.read()
try:
    d = json.loads(t)
except ValueError:
    print(t.strip()); sys.exit()
if d.get("kind") == "Status":
    print(d["code"], d["reason"], d["message"]); sys.exit()
print(" ".join("%s=%s" % (i["metadata"]["name"], i["value"]) for i in d["items"]), "@" + d["metadata"]["resourceVersion"])'
}
mk p1 1
r1=$(rv_of p1)
mk p2 2
mk p3 3
r3=$(rv_of p3)
now=$(show "" | sed 's/.*@//')
expect_eq "unset" "$(show "")" "p1=1 p2=2 p3=3 @$now"
expect_eq "zero" "$(show "resourceVersion=0")" "p1=1 p2=2 p3=3 @$now"
expect_eq "not older than" "$(show "resourceVersion=$r1")" "p1=1 p2=2 p3=3 @$now"
expect_eq "NotOlderThan" "$(show "resourceVersion=$r1&resourceVersionMatch=NotOlderThan")" "p1=1 p2=2 p3=3 @$now"
expect_eq "exact r1" "$(show "resourceVersion=$r1&resourceVersionMatch=Exact")" "p1=1 @$r1"
# changes after r3 are undone for an exact read at r3
k patch wpc p1 --type=merge -p '{"value":10}' >/dev/null 2>&1 || bad "patch p1"
k delete wpc p2 >/dev/null 2>&1 || bad "delete p2"
mk p4 4
expect_eq "exact r3" "$(show "resourceVersion=$r3&resourceVersionMatch=Exact")" "p1=1 p2=2 p3=3 @$r3"
now=$(show "" | sed 's/.*@//')
expect_eq "exact now" "$(show "resourceVersion=$now&resourceVersionMatch=Exact")" "p1=10 p3=3 p4=4 @$now"
# a chunked list is one snapshot: later pages list the first page's state
tok=$(k get --raw "$WPC?limit=2" | sed -n 's/.*"continue":"\([^"]*\)".*/\1/p')
[ -n "$tok" ] || bad "no continue token"
k delete wpc p4 >/dev/null 2>&1 || bad "delete p4"
mk p5 5
expect_eq "second page" "$(show "limit=2&continue=$tok")" "p4=4 @$now"
# refused as kube-apiserver refuses them
expect_has "future" "$(show "resourceVersion=999999")" "(Timeout): Too large resource version: 999999"
# 422s with their cause in details, so kubectl names the ListOptions
expect_eq "exact 0" "$(show "resourceVersion=0&resourceVersionMatch=Exact")" 'The ListOptions "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'
expect_eq "status" "$(curl -s "http://127.0.0.1:$PORT$WPC?resourceVersionMatch=Exact")" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided","reason":"Invalid","code":422,"details":{"group":"meta.k8s.io","kind":"ListOptions","causes":[{"reason":"FieldValueForbidden","message":"Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided","field":"resourceVersionMatch"}]}}'
expect_has "match alone" "$(show "resourceVersionMatch=Exact")" "forbidden unless resourceVersion is provided"
expect_has "bad match" "$(show "resourceVersion=$r1&resourceVersionMatch=Newest")" "Unsupported value"
expect_has "match and continue" "$(show "resourceVersion=$r1&resourceVersionMatch=Exact&continue=$tok")" "forbidden when continue is provided"
expect_has "bad version" "$(show "resourceVersion=x1")" "(BadRequest): invalid resource version"
# an exact read older than the history (20 changes) is 410
i=0
while [ $i -lt 12 ]; do
	k patch wpc p1 --type=merge -p "{\"value\":$((20 + i))}" >/dev/null 2>&1 || bad "patch $i"
	i=$((i + 1))
done
k delete wpc p3 p5 >/dev/null 2>&1 || bad "delete"
expect_has "too old" "$(show "resourceVersion=$r1&resourceVersionMatch=Exact")" "(Expired): too old resource version: $r1"
# bookmarks when asked: the version the watch has seen everything up to
now=$(show "" | sed 's/.*@//')
out=$(timeout 2.5 kubectl $S get --raw "$WPC?watch=1&allowWatchBookmarks=true&resourceVersion=$now" 2>/dev/null)
expect_has "bookmark" "$out" '{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"'"$now"'"},"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"WorkloadPriorityClass"}}'
out=$(timeout 2.5 kubectl $S get --raw "$WPC?watch=1&resourceVersion=$now" 2>/dev/null)
expect_eq "no bookmark unasked" "$(printf '%s' "$out" | grep -c BOOKMARK)" "0"
stop || bad "stop"
finish
