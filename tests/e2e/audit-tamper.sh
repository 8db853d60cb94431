#!/bin/sh
# audit verify finds tampering: an edited view, an edited event whose
# digests were recomputed (the hash chain still breaks), an added file, an
# edited and a deleted row in the database, as rows and in chunks, directly
# and through the `events` view.  Each must exit 1 and name the
# file or row; the untouched bundle and database verify (exit 0).
QF=${QF:-build/quotaflow}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "audit-tamper: FAIL: $*"; exit 1; }
expect() { # exit-code needle args...
	want=$1 needle=$2
	shift 2
	"$QF" audit verify "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" = "$want" ] || fail "verify $* exited $got, want $want: $(cat "$tmp/err")"
	grep -qF -- "$needle" "$tmp/out" "$tmp/err" ||
		fail "verify $* does not say '$needle': $(cat "$tmp/err")"
}
"$QF" simulate -f tests/fixtures/audit/cluster.yaml \
	--trace tests/fixtures/audit/trace.jsonl --events "$tmp/ev.jsonl" ||
	fail simulate
"$QF" audit ingest --db "$tmp/a.db" "$tmp/ev.jsonl" \
	tests/fixtures/audit/cluster.yaml >/dev/null 2>&1 || fail ingest
"$QF" audit export --db "$tmp/a.db" --out "$tmp/b" >/dev/null || fail export
"$QF" audit export --db "$tmp/a.db" --out "$tmp/b" >/dev/null 2>&1 &&
	fail "export over an existing directory"
expect 0 "verified: 27 files, 22 events" "$tmp/b"
expect 0 "verified: database: 22 events" --db "$tmp/a.db"

# 1. an edited view
cp -r "$tmp/b" "$tmp/t1"
sed -i 's/90.0/9.0/' "$tmp/t1/views/audit_waits.csv"
expect 1 "t1/views/audit_waits.csv: error: tampered: its SHA-256 differs from manifest.json" "$tmp/t1"

# 2. an edited event, manifest and statement digests recomputed to match
# (reseal DIR SED-SCRIPT [FILE]: edit FILE, events.jsonl by default, so)
reseal() {
	cp -r "$tmp/b" "$1"
	f=$1/${3:-events.jsonl}
	old=$(sha256sum "$f" | cut -d' ' -f1)
	sed -i "$2" "$f" || fail "sed $2"
	new=$(sha256sum "$f" | cut -d' ' -f1)
	[ "$old" != "$new" ] || fail "sed $2 changed nothing in $f"
	sed -i "s/$old/$new/" "$1/manifest.json" "$1/statement.intoto.json"
	oldm=$(grep -A3 '"manifest.json"' "$tmp/b/statement.intoto.json" | sed -n 's/.*"sha256": "\(.*\)".*/\1/p')
	newm=$(sha256sum "$1/manifest.json" | cut -d' ' -f1)
	sed -i "s/$oldm/$newm/" "$1/statement.intoto.json"
}
reseal "$tmp/t2" '5s/"reason":"[A-Za-z]*"/"reason":"Finished"/'
expect 1 "t2/events.jsonl:5:1: error: tampered: event id 5: the hash chain breaks here" "$tmp/t2"
# the same values written in other JSON forms (spaces, keys in another
# order, \u and \/ escapes) are the same events: the chain holds
reseal "$tmp/t2b" '3s/{"id":3,/{ "id" : 3 ,/
4s/"source":"quotaflow"/"source":"\\u0071uotaflow"/
6s#"workload":"team-a/#"workload":"team-a\\/#
7s/^{\("id":[0-9]*\),\("cluster":"[a-z]*"\)/{\2,\1/'
grep -q '"source":"\\u0071uotaflow"' "$tmp/t2b/events.jsonl" ||
	fail "the \\u edit did not apply"
expect 0 "verified: 27 files, 22 events" "$tmp/t2b"
# a value changed on such a line, in a line as export writes it after an
# escape, and inside an escaped string
reseal "$tmp/t2c" '3s/{"id":3,/{ "id" : 3 ,/; 3s/"count":1,/"count":2,/'
expect 1 "t2c/events.jsonl:3:1: error: tampered: event id 3: the hash chain breaks here" "$tmp/t2c"
reseal "$tmp/t2d" '6s#"workload":"team-a/#"workload":"team-b\\/#'
expect 1 "t2d/events.jsonl:6:1: error: tampered: event id 6: the hash chain breaks here" "$tmp/t2d"
reseal "$tmp/t2e" '4s/\\"7\\"/\\"8\\"/'
grep -q 'gpu\\":\\"8\\"' "$tmp/t2e/events.jsonl" || fail "the detail edit did not apply"
expect 1 "t2e/events.jsonl:4:1: error: tampered: event id 4: the hash chain breaks here" "$tmp/t2e"

# 2f-2k. a view, the report or an evidence table edited with the seals
# recomputed: the views and report derived again from the bundle's events
# and evidence tables name the first line that differs
expect 0 "views: 12 files derived again from the bundle's events and evidence tables, the same" "$tmp/b"
reseal "$tmp/t2f" '6s/,90.0$/,9.0/' views/audit_waits.csv
expect 1 "t2f/views/audit_waits.csv:6:1: error: tampered: not what the bundle's events and evidence tables give: it holds \`default,job-d1-d53d3,team-d," "$tmp/t2f"
expect 1 ",9.0\` where they give \`default,job-d1-d53d3,team-d,team-d,1970-01-01T00:00:10.000Z,1970-01-01T00:01:40.000Z,90.0\`" "$tmp/t2f"
reseal "$tmp/t2g" '$d' views/audit_preemptions.csv
expect 1 "t2g/views/audit_preemptions.csv:2:1: error: tampered: not what the bundle's events and evidence tables give: it ends here, where they give \`default,team-a/job-a1-07ad7,team-b/job-b1-1b3f0," "$tmp/t2g"
reseal "$tmp/t2h" 's/"wait_seconds": 90.0/"wait_seconds": 9.0/' views/audit_waits.json
expect 1 "t2h/views/audit_waits.json:45:1: error: tampered:" "$tmp/t2h"
expect 1 "it holds \`    \"wait_seconds\": 9.0\` where they give \`    \"wait_seconds\": 90.0\`" "$tmp/t2h"
reseal "$tmp/t2i" '0,/"preempted": 1/s//"preempted": 0/' report.json
expect 1 "t2i/report.json:17:1: error: tampered: not what the bundle's events and evidence tables give: it holds \`      \"preempted\": 0,\`" "$tmp/t2i"
# a quota raised: the breaches it hid no longer follow from the evidence
reseal "$tmp/t2j" 's/"cluster_queue":"team-a","cohort":"alpha","flavor":"h100","resource":"nvidia.com\/gpu","nominal_milli":4000/&0/' evidence/quotas.jsonl
expect 1 "tampered: not what the bundle's events and evidence tables give" "$tmp/t2j"
# an evidence table removed with its seals: the others are no proof
cp -r "$tmp/b" "$tmp/t2k"
rm "$tmp/t2k/evidence/prices.jsonl"
grep -v prices "$tmp/b/manifest.json" >/dev/null || fail "no prices entry"
expect 1 "t2k/evidence/prices.jsonl: error: tampered: listed in manifest.json but missing" "$tmp/t2k"

# a bundle of an earlier quotaflow has no evidence/: verify says the views
# were not derived again (a reseal can make one; docs/audit.md)
cp -r "$tmp/b" "$tmp/t2l"
rm -r "$tmp/t2l/evidence"
awk '/^    \{$/ { obj = $0; inobj = 1; next }
	inobj { obj = obj "\n" $0
		if ($0 ~ /^    \},?$/) { inobj = 0; if (obj !~ /evidence\//) print obj }
		next }
	{ print }' "$tmp/b/manifest.json" >"$tmp/t2l/manifest.json"
awk '/^    \{$/ { obj = $0; inobj = 1; next }
	inobj { obj = obj "\n" $0
		if ($0 ~ /^    \},?$/) { inobj = 0; if (obj !~ /evidence\//) print obj }
		next }
	{ print }' "$tmp/b/statement.intoto.json" >"$tmp/t2l/statement.intoto.json"
oldm=$(sha256sum "$tmp/b/manifest.json" | cut -d' ' -f1)
newm=$(sha256sum "$tmp/t2l/manifest.json" | cut -d' ' -f1)
sed -i "s/$oldm/$newm/" "$tmp/t2l/statement.intoto.json"
expect 0 "verified: 18 files, 22 events" "$tmp/t2l"
expect 0 "views: not derived again: the bundle has no evidence/ tables to derive them from (exported by an earlier quotaflow)" "$tmp/t2l"

# 3. a file slipped in
cp -r "$tmp/b" "$tmp/t3"
echo x >"$tmp/t3/views/extra.csv"
expect 1 "t3/views/extra.csv: error: tampered: not in manifest.json" "$tmp/t3"

# 4. a row of the database edited, 5. one deleted: Kubernetes events are
# rows of event_rows
"$QF" audit ingest --db "$tmp/r.db" tests/fixtures/audit/k8s-events.json \
	>/dev/null 2>&1 || fail ingest
[ "$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM event_rows")" = 11 ] ||
	fail "Kubernetes events are not rows"
expect 0 "verified: database: 11 events" --db "$tmp/r.db"
cp "$tmp/r.db" "$tmp/t4.db"
sqlite3 "$tmp/t4.db" "UPDATE event_rows SET message = 'nothing to see' WHERE id = 7" ||
	fail sqlite3
expect 1 "tampered: events row id 7: the hash chain breaks here" --db "$tmp/t4.db"
cp "$tmp/r.db" "$tmp/t5.db"
sqlite3 "$tmp/t5.db" "DELETE FROM event_rows WHERE id = 3" || fail sqlite3
expect 1 "tampered: events row id 4" --db "$tmp/t5.db"

# 6. an event of a chunk edited, 7. one removed, 8. a chunk that no longer
# reads as one: a file's events are in event_chunks
[ "$(sqlite3 "$tmp/a.db" "SELECT sum(n) FROM event_chunks")" = 22 ] ||
	fail "a file's events are not in chunks"
cp "$tmp/a.db" "$tmp/t6.db"
sqlite3 "$tmp/t6.db" "UPDATE event_chunks SET rows = json_set(rows,
	'\$[' || (7 - first_id) || '][7]', 'nothing to see')
	WHERE first_id <= 7 AND last_id >= 7" || fail sqlite3
[ "$(sqlite3 "$tmp/t6.db" "SELECT message FROM events WHERE id = 7")" = \
	"nothing to see" ] || fail "the edit did not reach the events view"
expect 1 "tampered: events row id 7: the hash chain breaks here" --db "$tmp/t6.db"
cp "$tmp/a.db" "$tmp/t7.db"
sqlite3 "$tmp/t7.db" "UPDATE event_chunks SET rows = json_remove(rows,
	'\$[' || (3 - first_id) || ']') WHERE first_id <= 3 AND last_id >= 3" ||
	fail sqlite3
expect 1 "tampered: events row id 4" --db "$tmp/t7.db"
cp "$tmp/a.db" "$tmp/t8.db"
sqlite3 "$tmp/t8.db" "UPDATE event_chunks SET rows = '[[1,2' WHERE first_id = 1" ||
	fail sqlite3
expect 1 "tampered: events row id 1" --db "$tmp/t8.db"

# 9. edits made through the `events` view, as when it was a table: a
# message, two events removed, a forged one added, a link rewritten; the
# columns a chunk event shares with its chunk cannot change
cp "$tmp/a.db" "$tmp/t9.db"
sqlite3 "$tmp/t9.db" "UPDATE events SET message = 'nothing to see' WHERE id = 7" ||
	fail "UPDATE events"
[ "$(sqlite3 "$tmp/t9.db" "SELECT message FROM events WHERE id = 7")" = \
	"nothing to see" ] || fail "UPDATE events did not reach the chunk"
expect 1 "tampered: events row id 7: the hash chain breaks here" --db "$tmp/t9.db"
cp "$tmp/a.db" "$tmp/t10.db"
sqlite3 "$tmp/t10.db" "DELETE FROM events WHERE id IN (3, 4)" || fail "DELETE FROM events"
[ "$(sqlite3 "$tmp/t10.db" "SELECT count(*), min(id) FILTER (WHERE id > 2) FROM events")" = "20|5" ] ||
	fail "DELETE FROM events did not remove ids 3 and 4"
expect 1 "tampered: events row id 5" --db "$tmp/t10.db"
cp "$tmp/a.db" "$tmp/t11.db"
sqlite3 "$tmp/t11.db" "INSERT INTO events(id, cluster, dkey, source, time_ms,
	last_ms, count, reason, workload) VALUES(23, 'default', 1, 'quotaflow',
	5, 5, 1, 'Admitted', 'team-a/forged')" || fail "INSERT INTO events"
expect 1 "tampered: events row id 23" --db "$tmp/t11.db"
cp "$tmp/a.db" "$tmp/t12.db"
sqlite3 "$tmp/t12.db" "UPDATE events SET chain = zeroblob(32) WHERE id = 9" ||
	fail "UPDATE events SET chain"
[ "$(sqlite3 "$tmp/t12.db" "SELECT hex(chain) FROM events WHERE id = 9")" = \
	"0000000000000000000000000000000000000000000000000000000000000000" ] ||
	fail "the rewritten link is not stored"
[ "$(sqlite3 "$tmp/t12.db" "SELECT length(hex(chains)) FROM event_chunks")" = 1408 ] ||
	fail "the chunk's links are no longer 22 of 32 bytes"
expect 1 "tampered: events row id 9" --db "$tmp/t12.db"
cp "$tmp/a.db" "$tmp/t13.db"
sqlite3 "$tmp/t13.db" "UPDATE events SET count = 2 WHERE id = 5" 2>"$tmp/err" &&
	fail "a chunk event's count changed"
grep -q "a chunk event keeps the cluster, source, last_ms, count and uid" "$tmp/err" ||
	fail "no reason given: $(cat "$tmp/err")"
sqlite3 "$tmp/t13.db" "UPDATE events SET reason = reason WHERE id = 9" ||
	fail "a no-op UPDATE"
expect 0 "verified: database: 22 events" --db "$tmp/t13.db"
cp "$tmp/r.db" "$tmp/t14.db"
sqlite3 "$tmp/t14.db" "UPDATE events SET count = count + 1 WHERE id = 2" ||
	fail "UPDATE events of a row"
expect 1 "tampered: events row id 2: the hash chain breaks here" --db "$tmp/t14.db"

# 15-18. the derived tables, which the chain does not cover, edited to
# hide a wait, a preemption, a borrowing and a usage point: verify --db
# derives them again from the events and names the first row that differs
expect 0 "derived tables: 1 cluster derived again from the events, the same" --db "$tmp/a.db"
cp "$tmp/a.db" "$tmp/t15.db"
sqlite3 "$tmp/t15.db" "UPDATE d_admissions SET admitted_ms = queued_ms
	WHERE workload = 'job-d1-d53d3'" || fail "UPDATE d_admissions"
[ "$(sqlite3 "$tmp/t15.db" "SELECT wait_seconds FROM audit_waits WHERE workload = 'job-d1-d53d3'")" = 0.0 ] ||
	fail "the d_admissions edit did not reach audit_waits"
expect 1 "tampered: d_admissions of cluster 'default' holds (cluster=default, workload=job-d1-d53d3" --db "$tmp/t15.db"
cp "$tmp/a.db" "$tmp/t16.db"
sqlite3 "$tmp/t16.db" "DELETE FROM d_preemptions" || fail "DELETE FROM d_preemptions"
expect 1 "tampered: d_preemptions of cluster 'default' lacks (cluster=default" --db "$tmp/t16.db"
cp "$tmp/a.db" "$tmp/t17.db"
sqlite3 "$tmp/t17.db" "UPDATE d_borrowing SET peak_milli = peak_milli + 1000
	WHERE rowid = (SELECT min(rowid) FROM d_borrowing)" || fail "UPDATE d_borrowing"
expect 1 "tampered: d_borrowing of cluster 'default' holds" --db "$tmp/t17.db"
cp "$tmp/a.db" "$tmp/t18.db"
sqlite3 "$tmp/t18.db" "UPDATE d_usage_series SET points = json_set(points, '\$[1][1]', 12345)
	WHERE rowid = (SELECT min(rowid) FROM d_usage_series)" || fail "UPDATE d_usage_series"
expect 1 "tampered: d_usage of cluster 'default'" --db "$tmp/t18.db"
# the hint says how to derive them again, and that works; until then the
# events are not derived yet (as in a stream between two derivations):
# not compared, and not called tampering
sqlite3 "$tmp/t15.db" "DELETE FROM d_ckpt" || fail "DELETE FROM d_ckpt"
expect 1 "error: cluster 'default' has events stored after its last derivation (a stream ingest between two derivations, or one stopped before its next): its derived tables lack them, and would differ from the events without any tampering; not compared" --db "$tmp/t15.db"
"$QF" audit ingest --db "$tmp/t15.db" "$tmp/ev.jsonl" >/dev/null 2>&1 || fail "ingest again"
expect 0 "derived tables: 1 cluster derived again from the events, the same" --db "$tmp/t15.db"
# a database derived before the rules' version was recorded: not compared,
# and said so; its next ingest derives it again and then it is
cp "$tmp/a.db" "$tmp/t19.db"
sqlite3 "$tmp/t19.db" "DELETE FROM settings WHERE key LIKE 'derive_version/%';
	DROP TABLE evidence_digests; PRAGMA user_version = 10;
	UPDATE d_preemptions SET reason = 'x'" || fail "old database"
expect 0 "evidence tables: not checked: no digests recorded" --db "$tmp/t19.db"
expect 0 "derived tables: not compared: 1 cluster derived by an earlier quotaflow" --db "$tmp/t19.db"
"$QF" audit ingest --db "$tmp/t19.db" "$tmp/ev.jsonl" >/dev/null 2>&1 || fail "ingest again"
expect 0 "derived tables: 1 cluster derived again from the events, the same" --db "$tmp/t19.db"
# 20-23. the evidence outside the chain: a policy change's author, an
# input's row, the breach threshold (settings) and the digests themselves
expect 0 "evidence tables: 11, as the last ingest stored them" --db "$tmp/a.db"
cp "$tmp/a.db" "$tmp/t20.db"
sqlite3 "$tmp/t20.db" "UPDATE policy_changes SET user = 'nobody'
	WHERE rowid = (SELECT min(rowid) FROM policy_changes)" || fail "UPDATE policy_changes"
expect 1 "tampered: table policy_changes is not what the last ingest stored: its 9 rows hash differently" --db "$tmp/t20.db"
cp "$tmp/a.db" "$tmp/t21.db"
sqlite3 "$tmp/t21.db" "DELETE FROM inputs WHERE id = (SELECT max(id) FROM inputs)" || fail "DELETE FROM inputs"
expect 1 "tampered: table inputs is not what the last ingest stored: 1 row where it recorded 2" --db "$tmp/t21.db"
cp "$tmp/a.db" "$tmp/t22.db"
sqlite3 "$tmp/t22.db" "INSERT OR REPLACE INTO settings VALUES('breach_after_ms', 3600000)" || fail "settings"
expect 1 "tampered: table settings is not what the last ingest stored" --db "$tmp/t22.db"
cp "$tmp/a.db" "$tmp/t23.db"
sqlite3 "$tmp/t23.db" "DELETE FROM evidence_digests WHERE tbl = 'prices'" || fail "DELETE FROM evidence_digests"
expect 1 "tampered: evidence_digests holds 10 tables, where an ingest records 11" --db "$tmp/t23.db"
# VACUUM renumbers rows of tables without an integer key: nothing changes
cp "$tmp/a.db" "$tmp/t24.db"
sqlite3 "$tmp/t24.db" "VACUUM" || fail VACUUM
expect 0 "evidence tables: 11, as the last ingest stored them" --db "$tmp/t24.db"
# a bundle of events stored every way verifies, its views derived again
# the same: verify stores a bundle's quotaflow events as chunks with their
# own ids, whichever way they were stored (a file's chunks; a stream's
# batch older than what its cluster holds, rows), and every other event
# as a row (Kubernetes events and Workloads), three clusters interleaved
"$QF" audit ingest --db "$tmp/m.db" "$tmp/ev.jsonl" \
	tests/fixtures/audit/cluster.yaml >/dev/null 2>&1 || fail "ingest m"
tail -n 11 "$tmp/ev.jsonl" >"$tmp/late.jsonl"
"$QF" audit ingest --db "$tmp/m.db" --cluster late "$tmp/late.jsonl" \
	tests/fixtures/audit/cluster.yaml >/dev/null 2>&1 || fail "ingest late"
"$QF" audit ingest --db "$tmp/m.db" --cluster other \
	tests/fixtures/audit/k8s-events.json \
	tests/fixtures/audit/watch-deleted.json \
	tests/fixtures/audit/cluster.yaml >/dev/null 2>&1 || fail "ingest other"
head -n 11 "$tmp/ev.jsonl" |
	"$QF" audit ingest --db "$tmp/m.db" --cluster late - >/dev/null 2>&1 ||
	fail "ingest the late stream"
[ "$(sqlite3 "$tmp/m.db" "SELECT group_concat(cluster || ':' || source || ':' || n, ' ')
	FROM (SELECT cluster, source, count(*) n FROM event_rows GROUP BY 1, 2)")" = \
	"late:quotaflow:11 other:k8s-event:11 other:k8s-workload:6" ] ||
	fail "the mixed database is not stored as the test means"
"$QF" audit export --db "$tmp/m.db" --out "$tmp/mb" >/dev/null || fail "export m"
expect 0 "views: 12 files derived again from the bundle's events and evidence tables, the same" "$tmp/mb"
expect 0 "verified: 27 files, 61 events" "$tmp/mb"
echo "audit-tamper: 32 tamperings found, 17 clean checks pass"
