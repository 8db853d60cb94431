#!/bin/sh
# A YAML List over the 64 MiB a record may have (kubectl get ... -A -o
# yaml of a large cluster) is read an entry at a time: every entry stored
# or rejected at its own line, the same input again adds nothing, a file
# cut short does not store its last entry half, and a large YAML file of
# another shape is one rejected record, as before.
QF=${QF:-build/quotaflow}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "audit-big-yaml: FAIL: $*"; exit 1; }
N=60000
BAD=30001 # this entry's message is an unclosed quote
awk -v n=$N -v bad=$BAD 'BEGIN {
	print "apiVersion: v1"; print "items:"
	for (i = 1; i <= n; i++) {
		s = i % 60; m = int(i / 60) % 60; h = int(i / 3600)
		t = sprintf("2026-06-12T%02d:%02d:%02dZ", h, m, s)
		print "- apiVersion: v1"
		print "  count: 1"
		print "  firstTimestamp: \"" t "\""
		print "  involvedObject:"
		print "    apiVersion: kueue.x-k8s.io/v1beta2"
		print "    kind: Workload"
		print "    name: job-w" i
		print "    namespace: team-" (i % 8)
		print "    uid: u-" i
		print "  kind: Event"
		print "  lastTimestamp: \"" t "\""
		if (i == bad)
			print "  message: \"unclosed"
		else
			print "  message: Quota reserved in ClusterQueue team-" (i % 8) ", wait time since queued was 0s; padding " sprintf("%0800d", i)
		print "  metadata:"
		print "    creationTimestamp: \"" t "\""
		print "    name: job-w" i ".18" i
		print "    namespace: team-" (i % 8)
		print "    uid: e-" i
		print "  reason: QuotaReserved"
		print "  reportingComponent: kueue-admission"
		print "  type: Normal"
	}
	print "kind: List"; print "metadata:"; print "  resourceVersion: \"\""
}' >"$tmp/events.yaml" || fail awk
size=$(wc -c <"$tmp/events.yaml")
[ "$size" -gt 67108864 ] || fail "the list is only $size bytes"
"$QF" audit ingest --db "$tmp/a.db" "$tmp/events.yaml" >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] || fail "ingest of a list with a bad entry exits $?: $(head -3 "$tmp/err")"
# entry 30001 starts at line 3 + 30000 * 20; the error names that line
badline=$((3 + (BAD - 1) * 20))
grep -q "events.yaml:6000[0-9]*:[0-9]*: error: YAML syntax error: .*(while parsing a block mapping at $badline:3)" "$tmp/err" ||
	fail "the bad entry is not named at its line: $(head -3 "$tmp/err")"
grep -q "ingested $((N + 1)) records: $((N - 1)) added, 1 rejected" "$tmp/out" ||
	fail "counts: $(cat "$tmp/out")"
got=$(sqlite3 "$tmp/a.db" "SELECT count(*), min(workload) FROM events")
[ "$got" = "$((N - 1))|team-0/job-w1000" ] || fail "stored: $got"
"$QF" audit ingest --db "$tmp/a.db" "$tmp/events.yaml" >"$tmp/out2" 2>/dev/null
grep -q " 0 added" "$tmp/out2" || fail "second ingest: $(cat "$tmp/out2")"
# cut short inside an entry: the entries before are stored, the last is
# not stored half
head -c 70000000 "$tmp/events.yaml" >"$tmp/cut.yaml"
"$QF" audit ingest --db "$tmp/c.db" "$tmp/cut.yaml" >"$tmp/out3" 2>"$tmp/err3"
[ $? = 1 ] || fail "a cut list exits $?"
grep -q "error: the list is cut short here" "$tmp/err3" || fail "cut: $(cat "$tmp/err3")"
kept=$(sqlite3 "$tmp/c.db" "SELECT count(*) FROM events")
last=$(sqlite3 "$tmp/c.db" "SELECT count(*) FROM events WHERE workload = 'team-' || ($kept + 1) % 8 || '/job-w' || ($kept + 1)")
[ "$kept" -gt 40000 ] && [ "$kept" -lt $((N - 1)) ] && [ "$last" = 0 ] ||
	fail "a cut list kept $kept events (its cut entry: $last)"
# another shape over the limit: one rejected record, nothing stored
awk 'BEGIN { for (i = 1; i <= 70000; i++) { print "---"; print "apiVersion: v1";
	print "kind: ConfigMap"; print "metadata:"; print "  name: c" i;
	print "data:"; print "  x: \"" sprintf("%0900d", i) "\"" } }' >"$tmp/docs.yaml"
"$QF" audit ingest --db "$tmp/d.db" "$tmp/docs.yaml" >"$tmp/out4" 2>"$tmp/err4"
[ $? = 1 ] || fail "a large stream of documents exits $?"
grep -q "docs.yaml:1:1: error: YAML input larger than 67108864 bytes and no List of items as kubectl writes one" "$tmp/err4" ||
	fail "documents: $(cat "$tmp/err4")"
echo "audit-big-yaml: $N entries in $((size / 1048576)) MiB, $((N - 1)) stored, the bad one at line $badline, $kept kept of a cut list"
