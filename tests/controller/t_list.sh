#!/bin/sh
# Chunked lists and the watch history: kubectl get over more than 500
# objects (limit=500 and a continue token), --chunk-size, a stale or
# malformed continue token, a watch resuming after a resourceVersion it
# still holds, and 410 Expired for one it dropped (--watch-history 100)
# (tests/controller/lib.sh).
suite=list
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" --watch-history 100 || exit 1
WPC=/apis/kueue.x-k8s.io/v1beta2/workloadpriorityclasses
i=0
while [ $i -lt 520 ]; do
	printf -- '---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata:\n  name: p%03d\nvalue: %d\n' $i $i
	i=$((i + 1))
done >"$tmp/wpc.yaml"
# a token taken after 20 goes stale once 100 more changes pass
sed -n '1,120p' "$tmp/wpc.yaml" >"$tmp/wpc1.yaml"
sed '1,120d' "$tmp/wpc.yaml" >"$tmp/wpc2.yaml"
k create -f "$tmp/wpc1.yaml" >/dev/null 2>&1 || bad "create 20"
old=$(k get --raw "$WPC?limit=10" | sed -n 's/.*"continue":"\([^"]*\)".*/\1/p')
[ -n "$old" ] || bad "no continue token"
out=$(k get --raw "$WPC?limit=10&continue=$old" 2>&1)
expect_has "fresh token" "$out" '"name":"p010"'
timeout 120 kubectl $S create -f "$tmp/wpc2.yaml" >"$tmp/create.out" 2>&1 ||
	bad "create 500: $(tail -3 "$tmp/create.out")"
out=$(k get workloadpriorityclasses -v=6 2>&1)
expect_eq "all rows" "$(echo "$out" | grep -c '^p[0-9]')" "520"
expect_eq "two chunks" "$(echo "$out" | grep -c 'workloadpriorityclasses?.*limit=500.* 200 OK')" "2"
expect_has "second chunk" "$out" "continue="
expect_eq "sorted" "$(echo "$out" | grep '^p[0-9]' | sed -n '501p' | cut -d' ' -f1)" "p500"
out=$(k get workloadpriorityclasses --chunk-size=100 -o name -v=6 2>&1)
expect_eq "chunk-size rows" "$(echo "$out" | grep -c '^workloadpriorityclass')" "520"
expect_eq "six chunks" "$(echo "$out" | grep -c 'limit=100.* 200 OK')" "6"
page=$(k get --raw "$WPC?limit=2")
expect_has "remaining" "$page" '"remainingItemCount":518'
# a resumable watch: changes after R, nothing before
rv=$(k get --raw "$WPC?limit=1" | sed -n 's/.*"resourceVersion":"\([0-9]*\)".*"items".*/\1/p')
k delete workloadpriorityclass p000 >/dev/null 2>&1 || bad "delete p000"
out=$(timeout 2 kubectl $S get --raw "$WPC?watch=1&resourceVersion=$rv" 2>/dev/null)
expect_has "resumed delete" "$out" '"type":"DELETED"'
expect_eq "only after R" "$(echo "$out" | grep -c '"type"')" "1"
# 520 creations later, version 1 is gone: 410 Expired as an ERROR event
out=$(timeout 5 kubectl $S get --raw "$WPC?watch=1&resourceVersion=1" 2>&1)
expect_has "watch 410" "$out" '"type":"ERROR"'
expect_has "watch 410 code" "$out" '"code":410'
expect_has "watch 410 reason" "$out" '"reason":"Expired"'
out=$(k get --raw "$WPC?limit=10&continue=$old" 2>&1)
expect_has "stale token" "$out" "(Expired): The provided continue parameter is too old"
out=$(k get --raw "$WPC?limit=10&continue=bm9wZQ" 2>&1)
expect_has "bad token" "$out" "continue key is not valid"
out=$(k get --raw "$WPC?limit=-1" 2>&1)
expect_has "bad limit" "$out" "limit must be a non-negative integer"
stop
finish
