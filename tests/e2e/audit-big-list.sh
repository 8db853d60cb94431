#!/bin/sh
# A List larger than a record (64 MiB, QF_INGEST_MAX_RECORD), as `kubectl
# get events -A -o json` of a busy cluster is, ingests item by item: every
# event is stored, a bad item is rejected at its own line, kind coming
# after the items (kubectl's key order) is fine, a second ingest adds
# nothing, and a list cut short keeps what came before the cut.  Before,
# the whole list was one rejected record and nothing was stored.
QF=${QF:-build/quotaflow}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "audit-big-list: FAIL: $*"; exit 1; }
N=60000
BAD=30001 # this item has no involvedObject
# kubectl's layout: keys sorted (items before kind), four-space indents
awk -v n=$N -v bad=$BAD 'BEGIN {
	print "{"; print "    \"apiVersion\": \"v1\","; print "    \"items\": ["
	for (i = 1; i <= n; i++) {
		s = i % 60; m = int(i / 60) % 60; h = int(i / 3600)
		t = sprintf("2026-06-12T%02d:%02d:%02dZ", h, m, s)
		print "        {"
		print "            \"apiVersion\": \"v1\","
		print "            \"count\": 1,"
		print "            \"firstTimestamp\": \"" t "\","
		if (i != bad) {
			print "            \"involvedObject\": {"
			print "                \"apiVersion\": \"kueue.x-k8s.io/v1beta2\","
			print "                \"kind\": \"Workload\","
			print "                \"name\": \"job-w" i "\","
			print "                \"namespace\": \"team-" (i % 8) "\","
			print "                \"uid\": \"u-" i "\""
			print "            },"
		}
		print "            \"kind\": \"Event\","
		print "            \"lastTimestamp\": \"" t "\","
		print "            \"message\": \"Quota reserved in ClusterQueue team-" (i % 8) ", wait time since queued was 0s; padding so that an event is about as long as a real one: " sprintf("%0600d", i) "\","
		print "            \"metadata\": {"
		print "                \"creationTimestamp\": \"" t "\","
		print "                \"name\": \"job-w" i ".18" i "\","
		print "                \"namespace\": \"team-" (i % 8) "\","
		print "                \"uid\": \"e-" i "\""
		print "            },"
		print "            \"reason\": \"QuotaReserved\","
		print "            \"reportingComponent\": \"kueue-admission\","
		print "            \"type\": \"Normal\""
		print "        }" (i < n ? "," : "")
	}
	print "    ],"; print "    \"kind\": \"List\","
	print "    \"metadata\": {"; print "        \"resourceVersion\": \"\""
	print "    }"; print "}"
}' >"$tmp/events.json" || fail generate
size=$(wc -c <"$tmp/events.json")
[ "$size" -gt 67108864 ] || fail "the list is only $size bytes"
# the line of the bad item's opening brace: 3 header lines, 24 lines an item
badline=$((3 + (BAD - 1) * 24 + 1))
"$QF" audit ingest --db "$tmp/a.db" "$tmp/events.json" >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] || fail "exit $? (want 1: one rejected item): $(cat "$tmp/err")"
grep -q "ingested $N records: $((N - 1)) added, 1 rejected" "$tmp/out" ||
	fail "summary: $(cat "$tmp/out")"
grep -q "events.json:$badline:9: error: .*involved object" "$tmp/err" ||
	fail "the bad item is not named at line $badline: $(head -3 "$tmp/err")"
got=$(sqlite3 "$tmp/a.db" "SELECT count(*), min(workload), max(time_ms) FROM events")
# the last item, after 16:40 hours of one-second steps
[ "$got" = "$((N - 1))|team-0/job-w1000|$(( ($(date -u -d 2026-06-12T16:40:00Z +%s)) * 1000 ))" ] ||
	fail "stored: $got"
"$QF" audit ingest --db "$tmp/a.db" "$tmp/events.json" >"$tmp/out2" 2>/dev/null
grep -q "0 added" "$tmp/out2" || fail "second ingest: $(cat "$tmp/out2")"
# cut short in the middle of an item: what came before is stored
head -c 70000000 "$tmp/events.json" >"$tmp/cut.json"
"$QF" audit ingest --db "$tmp/c.db" "$tmp/cut.json" >"$tmp/out3" 2>"$tmp/err3"
[ $? = 1 ] || fail "a cut list exits $?"
grep -q "cut.json:[0-9]*:9: error: the list is cut short inside item [0-9]*, which starts here and is not stored" "$tmp/err3" || fail "cut: $(cat "$tmp/err3")"
kept=$(sqlite3 "$tmp/c.db" "SELECT count(*) FROM events")
[ "$kept" -gt 40000 ] && [ "$kept" -lt $((N - 1)) ] ||
	fail "a cut list kept $kept events"
# cut short between two items (its last line "        },"; the bad item
# has 7 lines fewer): the 50,000
# items before the cut are stored and the cut is said, not taken for the
# end of the list
head -n $((3 + 50000 * 24 - 7)) "$tmp/events.json" >"$tmp/cut2.json"
[ "$(tail -n 1 "$tmp/cut2.json")" = "        }," ] || fail "cut2 does not end an item"
"$QF" audit ingest --db "$tmp/d.db" "$tmp/cut2.json" >"$tmp/out4" 2>"$tmp/err4"
[ $? = 1 ] || fail "a list cut between items exits $?: $(cat "$tmp/err4")"
grep -q "cut2.json:$((3 + 50000 * 24 - 7 + 1)):1: error: the list is cut short here" "$tmp/err4" ||
	fail "cut between items: $(cat "$tmp/err4")"
[ "$(sqlite3 "$tmp/d.db" "SELECT count(*) FROM events")" = 49999 ] ||
	fail "a list cut between items kept $(sqlite3 "$tmp/d.db" "SELECT count(*) FROM events")"
echo "audit-big-list: $N items in $((size / 1048576)) MiB, $((N - 1)) stored, the bad one at line $badline, $kept kept of a cut list"
