#!/bin/sh
# A YAML List over the 64 MiB a record may have (kubectl get ... -A -o
# yaml of a large cluster) is read an entry at a time: every entry stored
# or rejected at its own line, the same input again adds nothing, a file
# cut short does not store its last entry half; a stream of `---`
# documents over the limit is read a document at a time; a large YAML
# file of another shape is one rejected record, as before.
QF=${QF:-build/quotaflow}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "audit-big-yaml: FAIL: $*"; exit 1; }
N=60000
BAD=30001 # this entry's message is an unclosed quote
# events N BAD list|docs: N Kubernetes Events (entry BAD's message an
# unclosed quote) as a List's items (`- ` entries, 20 lines each) or as a
# stream of `---` documents (17 lines each)
events() {
	awk -v n="$1" -v bad="$2" -v docs="$([ "$3" = docs ] && echo 1)" 'BEGIN {
	in1 = docs ? "" : "- "; in2 = docs ? "" : "  "
	if (!docs) { print "apiVersion: v1"; print "items:" }
	for (i = 1; i <= n; i++) {
		s = i % 60; m = int(i / 60) % 60; h = int(i / 3600)
		t = sprintf("2026-06-12T%02d:%02d:%02dZ", h, m, s)
		if (docs) print "---"
		print in1 "apiVersion: v1"
		print in2 "count: 1"
		print in2 "firstTimestamp: \"" t "\""
		print in2 "involvedObject:"
		if (!docs) print in2 "  apiVersion: kueue.x-k8s.io/v1beta2"
		print in2 "  kind: Workload"
		print in2 "  name: job-w" i
		print in2 "  namespace: team-" (i % 8)
		if (!docs) print in2 "  uid: u-" i
		print in2 "kind: Event"
		print in2 "lastTimestamp: \"" t "\""
		if (i == bad)
			print in2 "message: \"unclosed"
		else
			print in2 "message: Quota reserved in ClusterQueue team-" (i % 8) ", wait time since queued was 0s; padding " sprintf("%0800d", i)
		print in2 "metadata:"
		if (!docs) print in2 "  creationTimestamp: \"" t "\""
		print in2 "  name: job-w" i ".18" i
		print in2 "  namespace: team-" (i % 8)
		print in2 "  uid: e-" i
		print in2 "reason: QuotaReserved"
		if (!docs) print in2 "reportingComponent: kueue-admission"
		print in2 "type: Normal"
	}
	if (!docs) { print "kind: List"; print "metadata:"; print "  resourceVersion: \"\"" }
}'
}
events $N $BAD list >"$tmp/events.yaml" || fail awk
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
# a stream of `---` documents over the limit (kubectl get events -A -o
# yaml --watch > f, run for long) is read a document at a time, as on
# standard input: each stored, a bad one rejected alone at its line (the
# file was one rejected record, "no List of items")
D=70000
DBAD=35001 # this document's message is an unclosed quote
events $D $DBAD docs >"$tmp/docs.yaml" || fail awk
dsize=$(wc -c <"$tmp/docs.yaml")
[ "$dsize" -gt 67108864 ] || fail "the stream is only $dsize bytes"
"$QF" audit ingest --db "$tmp/d.db" "$tmp/docs.yaml" >"$tmp/out4" 2>"$tmp/err4"
[ $? = 1 ] || fail "a large stream of documents with a bad one exits $?"
# document 35001 starts at line 1 + 35000 * 17, its message 10 lines on
dbad=$((1 + (DBAD - 1) * 17))
grep -q "docs.yaml:[0-9]*:[0-9]*: error: YAML syntax error: .*(while scanning a quoted scalar at $((dbad + 10)):10)" "$tmp/err4" &&
	grep -q "nothing of this document is stored" "$tmp/err4" ||
	fail "the bad document is not named at its line: $(head -3 "$tmp/err4")"
grep -q "ingested $D records: $((D - 1)) added, 1 rejected" "$tmp/out4" ||
	fail "documents: $(cat "$tmp/out4") $(head -3 "$tmp/err4")"
[ "$(sqlite3 "$tmp/d.db" "SELECT count(*) FROM events")" = $((D - 1)) ] ||
	fail "documents stored: $(sqlite3 "$tmp/d.db" "SELECT count(*) FROM events")"
"$QF" audit ingest --db "$tmp/d.db" "$tmp/docs.yaml" >"$tmp/out5" 2>/dev/null
grep -q " 0 added" "$tmp/out5" || fail "the stream again: $(cat "$tmp/out5")"
# another shape over the limit (items indented under `items:`): one
# rejected record, nothing stored, as before
awk 'BEGIN { print "apiVersion: v1"; print "kind: List"; print "items:"
	for (i = 1; i <= 70000; i++) { print "  - apiVersion: v1";
	print "    kind: ConfigMap"; print "    metadata:"; print "      name: c" i;
	print "    data:"; print "      x: \"" sprintf("%0900d", i) "\"" } }' >"$tmp/other.yaml"
"$QF" audit ingest --db "$tmp/o.db" "$tmp/other.yaml" >"$tmp/out6" 2>"$tmp/err6"
[ $? = 1 ] || fail "a large YAML file of another shape exits $?"
grep -q "other.yaml:1:1: error: YAML input larger than 67108864 bytes and no List of items as kubectl writes one" "$tmp/err6" ||
	fail "another shape: $(cat "$tmp/err6")"
echo "audit-big-yaml: $N entries in $((size / 1048576)) MiB, $((N - 1)) stored, the bad one at line $badline, $kept kept of a cut list; $((D - 1)) of $D documents in $((dsize / 1048576)) MiB stored"
