#!/bin/sh
# audit ingest of a stream that is not in time order (docs/audit.md
# "Streams"): each batch is committed as it arrives; the derivation is
# deferred while --derive-interval has not passed, runs when the stream
# goes idle past it, and at the end; a batch that changes what earlier
# events mean, killed before its derivation, leaves a database whose next
# ingest derives from the first event.  Each ends with the views of one
# ingest of the same inputs.
QF=${QF:-build/quotaflow}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
F=tests/fixtures/audit
fail() {
	echo "audit-stream: FAIL: $*"
	exit 1
}
q() { "$QF" audit query --db "$1" "$2" 2>&1; }
# wait_for DB SQL WANT: poll until the query's last line is WANT (30 s)
wait_for() {
	i=0
	while [ "$(q "$1" "$2" | tail -1)" != "$3" ]; do
		i=$((i + 1))
		[ $i -lt 300 ] || fail "$2 on $1 gave $(q "$1" "$2" | tail -1), want $3"
		sleep 0.1
	done
}
views() {
	for v in audit_waits audit_borrowing audit_preemptions audit_breaches; do
		q "$1" "select * from $v"
	done
}
# stream DB INTERVAL: ingest standard input from the FIFO $tmp/p in the
# background (pid in $pid), the FIFO open for writing on fd 3
stream() {
	rm -f "$tmp/p"
	mkfifo "$tmp/p" || fail mkfifo
	"$QF" audit ingest --db "$1" --derive-interval "$2" - <"$tmp/p" \
		>"$tmp/stream.out" 2>&1 &
	pid=$!
	# a hung ingest fails the test instead of hanging it
	(sleep 60 && kill -9 "$pid") >/dev/null 2>&1 &
	dog=$!
	exec 3>"$tmp/p"
}
end_stream() {
	exec 3>&-
	wait "$pid" || fail "the stream's ingest exited $?: $(cat "$tmp/stream.out")"
	kill "$dog" 2>/dev/null
	pid=
}

"$QF" simulate -f $F/cluster.yaml --trace $F/trace.jsonl \
	--events "$tmp/ev.jsonl" >/dev/null || fail simulate
n=$(wc -l <"$tmp/ev.jsonl")
head -n $((n / 2)) "$tmp/ev.jsonl" >"$tmp/early.jsonl"
tail -n +$((n / 2 + 1)) "$tmp/ev.jsonl" >"$tmp/late.jsonl"
"$QF" audit ingest --db "$tmp/ref.db" $F/cluster.yaml "$tmp/ev.jsonl" \
	>/dev/null || fail "reference ingest"
views "$tmp/ref.db" >"$tmp/ref.views"
nwait=$(q "$tmp/ref.db" "select count(*) from audit_waits" | tail -1)

# 1. the early events after the late ones, --derive-interval 1h: stored
# at once, not derived while the stream is open, derived at its end
"$QF" audit ingest --db "$tmp/a.db" $F/cluster.yaml "$tmp/late.jsonl" \
	>/dev/null || fail "ingest of the late events"
before=$(q "$tmp/a.db" "select count(*) from audit_waits" | tail -1)
[ "$before" != "$nwait" ] || fail "the late events alone give every wait"
stream "$tmp/a.db" 1h
cat "$tmp/early.jsonl" >&3
wait_for "$tmp/a.db" "select count(*) from events" "$n"
sleep 1
[ "$(q "$tmp/a.db" "select count(*) from audit_waits" | tail -1)" = "$before" ] ||
	fail "derived before --derive-interval had passed"
end_stream
views "$tmp/a.db" | cmp -s - "$tmp/ref.views" ||
	fail "the stream's views differ from one ingest's at its end"

# 2. the same with --derive-interval 200ms: derived while the stream is
# open and idle
"$QF" audit ingest --db "$tmp/b.db" $F/cluster.yaml "$tmp/late.jsonl" \
	>/dev/null || fail "ingest of the late events"
stream "$tmp/b.db" 200ms
cat "$tmp/early.jsonl" >&3
wait_for "$tmp/b.db" "select count(*) from audit_waits" "$nwait"
kill -0 "$pid" 2>/dev/null || fail "the stream's ingest ended early"
views "$tmp/b.db" | cmp -s - "$tmp/ref.views" ||
	fail "the idle stream's views differ from one ingest's"
end_stream

# 3. a ClusterQueue snapshot (it changes what earlier events mean) on a
# stream killed before it was derived: the next ingest derives it
"$QF" audit ingest --db "$tmp/ref8.db" $F/cluster.yaml "$tmp/ev.jsonl" \
	$F/stream/team-a-8.json >/dev/null || fail "reference ingest"
views "$tmp/ref8.db" >"$tmp/ref8.views"
cmp -s "$tmp/ref.views" "$tmp/ref8.views" &&
	fail "team-a's larger quota changes no view"
cp "$tmp/ref.db" "$tmp/c.db"
stream "$tmp/c.db" 1h
cat $F/stream/team-a-8.json >&3
wait_for "$tmp/c.db" "select nominal_milli from quotas where cluster_queue = 'team-a'" 8000
kill -9 "$pid"
wait "$pid" 2>/dev/null
kill "$dog" 2>/dev/null
pid=
exec 3>&-
views "$tmp/c.db" | cmp -s - "$tmp/ref.views" ||
	fail "derived before --derive-interval had passed"
"$QF" audit ingest --db "$tmp/c.db" - </dev/null >/dev/null 2>&1 ||
	fail "ingest after the kill"
views "$tmp/c.db" | cmp -s - "$tmp/ref8.views" ||
	fail "after a kill, the next ingest did not derive the snapshot: $(views "$tmp/c.db" | diff - "$tmp/ref8.views" | head -5)"
# 4. where a stream's events are stored (docs/audit.md "Storage"): a batch
# that comes after everything stored goes to chunks, a batch older than
# what is stored goes to rows, in the order its events came; the views
# are one ingest's either way
"$QF" audit ingest --db "$tmp/d.db" $F/cluster.yaml >/dev/null 2>&1 ||
	fail "ingest of the cluster"
"$QF" audit ingest --db "$tmp/d.db" - <"$tmp/late.jsonl" >/dev/null 2>&1 ||
	fail "ingest - of the late half"
"$QF" audit ingest --db "$tmp/d.db" - <"$tmp/early.jsonl" >/dev/null 2>&1 ||
	fail "ingest - of the early half"
[ "$(sqlite3 "$tmp/d.db" "select sum(n) from event_chunks")" = \
	"$(wc -l <"$tmp/late.jsonl" | tr -d ' ')" ] ||
	fail "the late half, first on the stream, is not in chunks"
[ "$(sqlite3 "$tmp/d.db" "select count(*) from event_rows")" = \
	"$(wc -l <"$tmp/early.jsonl" | tr -d ' ')" ] ||
	fail "the early half, older than what was stored, is not rows"
views "$tmp/d.db" | cmp -s - "$tmp/ref.views" ||
	fail "a stream stored in chunks and rows: the views differ"
"$QF" audit verify --db "$tmp/d.db" >/dev/null 2>&1 || fail "verify --db"
# records of another source amid a stream's events: each has its own id,
# in the order the stream sent them (the events gathered before a record
# are stored before it)
"$QF" audit ingest --db "$tmp/e.db" $F/cluster.yaml >/dev/null 2>&1 ||
	fail "ingest of the cluster"
{
	head -n 5 "$tmp/ev.jsonl"
	cat $F/k8s-events.json
	tail -n +6 "$tmp/ev.jsonl"
} >"$tmp/mixed.json"
"$QF" audit ingest --db "$tmp/e.db" - <"$tmp/mixed.json" >/dev/null 2>&1 ||
	fail "ingest - of a mixed stream"
[ "$(sqlite3 "$tmp/e.db" "select count(*) = count(distinct id) from events")" = 1 ] ||
	fail "two events of a mixed stream share an id"
[ "$(sqlite3 "$tmp/e.db" "select min(id) || ' ' || max(id) from events where source = 'k8s-event'")" = "6 16" ] ||
	fail "the Kubernetes events are not where the stream sent them: $(sqlite3 "$tmp/e.db" "select group_concat(id) from events where source = 'k8s-event'")"
"$QF" audit verify --db "$tmp/e.db" >/dev/null 2>&1 || fail "verify --db of a mixed stream"
# the same records in a file: the same ids, so the same hash chain
"$QF" audit ingest --db "$tmp/f.db" $F/cluster.yaml "$tmp/mixed.json" \
	>/dev/null 2>&1 || fail "ingest of a mixed file"
[ "$(sqlite3 "$tmp/f.db" "select id, quote(chain) from events order by id desc limit 1")" = \
	"$(sqlite3 "$tmp/e.db" "select id, quote(chain) from events order by id desc limit 1")" ] ||
	fail "a mixed file and the same stream number their events differently"
# a stream idle between batches holds no lock: a file ingested into the
# same database meanwhile is stored at once (before, it waited for the
# lock the stream kept and failed, "database is locked"), the stream goes
# on after it, and the two together are one chain and the views of one
# ingest of both
stream "$tmp/g.db" 0
head -n 5 "$tmp/ev.jsonl" >&3
wait_for "$tmp/g.db" "select count(*) from events" 5
timeout 30 "$QF" audit ingest --db "$tmp/g.db" $F/cluster.yaml \
	>"$tmp/g.out" 2>&1 ||
	fail "a file ingest beside an idle stream exited $?: $(cat "$tmp/g.out")"
grep -q "being written by another process" "$tmp/g.out" &&
	fail "the file ingest waited for the idle stream"
tail -n +6 "$tmp/ev.jsonl" >&3
end_stream
"$QF" audit verify --db "$tmp/g.db" >/dev/null 2>&1 || fail "verify --db of g.db"
views "$tmp/g.db" | cmp -s - "$tmp/ref.views" ||
	fail "a stream with a file ingested beside it: the views differ"
echo "audit-stream: ok"
