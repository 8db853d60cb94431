#!/bin/sh
# The first load of a new audit database (docs/audit.md "Durability"): it
# is written through SQLite's rollback journal, not the WAL and then the
# database again; the database is in WAL mode once it ends.  An ingest
# killed in that first load leaves its journal: any command, read-only
# ones included, rolls it back to what was committed (the schema), and
# the next ingest gives one clean ingest's views.  An ingest into an
# existing database keeps WAL from the start (readers see the last
# commit while it writes).
QF=${QF:-build/quotaflow}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() {
	echo "audit-first-load: FAIL: $*"
	exit 1
}
q() { "$QF" audit query --db "$1" "$2" 2>&1 | tail -1; }
views() {
	for v in audit_waits audit_borrowing audit_preemptions audit_breaches; do
		"$QF" audit query --db "$1" "select * from $v" 2>&1
	done
}
# the journal mode in the database header (bytes 18 and 19): 2 is WAL
mode() { od -An -tu1 -j18 -N2 "$1" | tr -s ' ' | sed 's/^ //'; }
# wait_file F: until F exists with content (30 s)
wait_file() {
	i=0
	while [ ! -s "$1" ]; do
		i=$((i + 1))
		[ $i -lt 300 ] || fail "$1 never appeared"
		sleep 0.1
	done
}
# killed DB: ingest cluster.yaml and the FIFO $tmp/p into DB, feed it
# every event, and kill it once the file beside DB named by its second
# argument has content, the FIFO still open: the ingest is mid-load
killed() {
	rm -f "$tmp/p"
	mkfifo "$tmp/p" || fail mkfifo
	"$QF" audit ingest --db "$1" "$tmp/cluster.yaml" "$tmp/p" \
		>"$tmp/kill.out" 2>&1 &
	pid=$!
	exec 3>"$tmp/p"
	cat "$tmp/events.jsonl" >&3
	wait_file "$1$2"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	pid=
	exec 3>&-
}

# enough events to fill the page cache, so the load writes pages early
sh bench/gen-events.sh 100000 "$tmp" >/dev/null 2>&1 || fail gen-events
"$QF" audit ingest --db "$tmp/ref.db" "$tmp/cluster.yaml" \
	"$tmp/events.jsonl" >/dev/null || fail "reference ingest"
[ "$(mode "$tmp/ref.db")" = "2 2" ] ||
	fail "a first load ends with the database not in WAL mode: $(mode "$tmp/ref.db")"
views "$tmp/ref.db" >"$tmp/ref.views"
[ "$(wc -l <"$tmp/ref.views")" -gt 1000 ] || fail "the reference has few rows"

# 1. killed in the first load: its rollback journal is left
killed "$tmp/a.db" -journal
[ -s "$tmp/a.db-journal" ] || fail "no rollback journal left by the first load"
[ -s "$tmp/a.db-wal" ] && fail "the first load wrote a WAL"
# a read-only command rolls it back: nothing of the load is there
[ "$(q "$tmp/a.db" "select count(*) from events")" = 0 ] ||
	fail "after the kill, events of the killed load: $(q "$tmp/a.db" "select count(*) from events")"
[ -s "$tmp/a.db-journal" ] && fail "the journal was not rolled back"
"$QF" audit report --db "$tmp/a.db" -o "$tmp/a.txt" ||
	fail "audit report after the kill"
"$QF" audit ingest --db "$tmp/a.db" "$tmp/cluster.yaml" \
	"$tmp/events.jsonl" >/dev/null || fail "ingest after the kill"
views "$tmp/a.db" | cmp -s - "$tmp/ref.views" ||
	fail "after a kill, the next ingest's views differ from one ingest's"
[ "$(mode "$tmp/a.db")" = "2 2" ] || fail "not in WAL mode after the kill"

# 2. an existing database: WAL from the start, no journal
"$QF" audit ingest --db "$tmp/b.db" "$tmp/cluster.yaml" >/dev/null ||
	fail "ingest of the cluster"
killed "$tmp/b.db" -wal
[ -e "$tmp/b.db-journal" ] && fail "an ingest into an existing database used a rollback journal"
[ "$(q "$tmp/b.db" "select count(*) from events")" = 0 ] ||
	fail "the killed ingest left events"
"$QF" audit ingest --db "$tmp/b.db" "$tmp/events.jsonl" >/dev/null ||
	fail "ingest after the kill"
views "$tmp/b.db" | cmp -s - "$tmp/ref.views" ||
	fail "existing database: views differ from one ingest's"
echo "audit-first-load: ok"
