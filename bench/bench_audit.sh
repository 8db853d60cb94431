#!/bin/sh
# bench/bench_audit.sh - `make bench` part for `quotaflow audit`
# (docs/performance.md): ingest N quotaflow events from JSON lines (with
# the derivation of every view, in one transaction), a report over them,
# and the two peer figures on the same machine: SQLite's own prepared-insert
# ceiling for rows of the same shape (bench/sqlite_insert.c) and the sqlite3
# shell's .import of the same rows as CSV.
#
# usage: sh bench/bench_audit.sh build/quotaflow [N]
QF=${1:-build/quotaflow}
N=${2:-${AUDIT_EVENTS:-1000000}}
case "$QF" in /*) ;; *) QF=$(pwd)/$QF ;; esac
cd "$(dirname "$0")/.." || exit 2
OUT=$(dirname "$QF")/bench/audit
mkdir -p "$OUT"
tool=$OUT/benchtool
peer=$OUT/sqlite_insert
# shellcheck disable=SC2046
cc -O2 -std=c11 -Wall -Wextra -Werror -I. -o "$tool" bench/benchtool.c \
	$(pkg-config --cflags --libs jansson) || exit 2
# shellcheck disable=SC2046
cc -O2 -std=c11 -Wall -Wextra -Werror -I. -o "$peer" bench/sqlite_insert.c \
	$(pkg-config --cflags --libs sqlite3) || exit 2
sh bench/gen-events.sh "$N" "$OUT" || exit 2
# the generator's 272 MB are written back first: the kernel flushing them
# during the ingest made it take a third more CPU (direct reclaim)
sync
rm -f "$OUT"/a.db* "$OUT"/peer.db* "$OUT"/csv.db*
field() { sed -n "s/.*$1=\([0-9]*\).*/\1/p" "$2"; }
# CPU times are what counts; the load says how loaded the machine was
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# the ingest (a new database: its first load, under the rollback journal)
# and SQLite's own prepared insert under the same journal, alternated
# ROUNDS times: one run of each moved by up to a third with what else the
# machine did in those seconds, so the medians and the median of the
# rounds' ratios are what the issue's 0.60 is held to
ROUNDS=${AUDIT_ROUNDS:-5}
: >"$OUT/rounds.txt"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	rm -f "$OUT"/a.db* "$OUT"/peer.db*
	"$tool" rusage "$QF" audit ingest --db "$OUT/a.db" \
		"$OUT/events.jsonl" "$OUT/cluster.yaml" >"$OUT/ingest.out" \
		2>"$OUT/ingest.err" || exit 1
	icpu=$(field cpu_ms "$OUT/ingest.err")
	"$peer" "$OUT/peer.db" "$N" delete >"$OUT/peer.out" || exit 1
	pcpu=$(sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p' "$OUT/peer.out")
	echo "$icpu $pcpu" | awk '{ printf "%d %.0f %.4f\n", $1, $2 * 1000, $2 * 1000 / $1 }' >>"$OUT/rounds.txt"
	echo "round $r: audit ingest cpu $icpu ms (peak RSS $(field maxrss_kb "$OUT/ingest.err") KB), prepared insert cpu $(awk -v p="$pcpu" 'BEGIN { printf "%.0f", p * 1000 }') ms"
	r=$((r + 1))
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cpu=$(cut -d' ' -f1 "$OUT/rounds.txt" | median)
pmed=$(cut -d' ' -f2 "$OUT/rounds.txt" | median)
echo "audit ingest: $N events, median cpu $cpu ms over $ROUNDS rounds, $(awk -v c="$cpu" -v n="$N" 'BEGIN { printf "%.0f", n * 1000 / c }') events/s of CPU"
"$tool" rusage "$QF" audit report --db "$OUT/a.db" -o "$OUT/report.txt" \
	2>"$OUT/report.err"
echo "audit report: cpu $(field cpu_ms "$OUT/report.err") ms, wall $(field wall_ms "$OUT/report.err") ms, peak RSS $(field maxrss_kb "$OUT/report.err") KB"
# the evidence bundle of every event and its verification; the peer is
# sha256sum over the bundle's files (reading and hashing them once, which
# verify does besides re-reading each event and recomputing the chain)
rm -rf "$OUT/bundle"
"$tool" rusage "$QF" audit export --db "$OUT/a.db" --out "$OUT/bundle" \
	>/dev/null 2>"$OUT/export.err"
"$tool" rusage "$QF" audit verify "$OUT/bundle" >/dev/null \
	2>"$OUT/verify.err"
"$tool" rusage sh -c 'find "$1" -type f -exec sha256sum {} + >/dev/null' \
	sh "$OUT/bundle" 2>"$OUT/verify-peer.err"
echo "audit export: cpu $(field cpu_ms "$OUT/export.err") ms, peak RSS $(field maxrss_kb "$OUT/export.err") KB ($(du -sm "$OUT/bundle" | cut -f1) MB bundle)"
echo "audit verify of the bundle: cpu $(field cpu_ms "$OUT/verify.err") ms, peak RSS $(field maxrss_kb "$OUT/verify.err") KB; sha256sum over its files: cpu $(field cpu_ms "$OUT/verify-peer.err") ms"
rm -rf "$OUT/bundle"
# a question over every event: audit query reads `events` through the
# chunk decoder (docs/audit.md); the peer is the sqlite3 shell over the
# stored view (json_each)
q="SELECT reason, count(*) FROM events GROUP BY reason"
"$tool" rusage "$QF" audit query --db "$OUT/a.db" "$q" >/dev/null \
	2>"$OUT/query.err"
"$tool" rusage sqlite3 "$OUT/a.db" "$q" >/dev/null 2>"$OUT/query-peer.err"
echo "audit query (reason counts over $N events): cpu $(field cpu_ms "$OUT/query.err") ms; sqlite3 over the stored view: cpu $(field cpu_ms "$OUT/query-peer.err") ms"
# the peer under WAL too (every later ingest's journal)
rm -f "$OUT"/peer.db*
"$peer" "$OUT/peer.db" "$N" wal | sed 's/^/sqlite prepared insert, WAL: /'
echo "sqlite prepared insert, rollback journal: median cpu $pmed ms over the same rounds"
# the issue's ratio, rows/s of CPU: the ingest against the prepared insert
echo "ratio audit ingest / prepared insert, rollback journal (0.60 asked): median of the rounds $(cut -d' ' -f3 "$OUT/rounds.txt" | median | awk '{ printf "%.2f", $1 }') (each: $(cut -d' ' -f3 "$OUT/rounds.txt" | awk '{ printf "%s%.2f", (NR > 1 ? " " : ""), $1 }'))"
sqlite3 -csv "$OUT/a.db" "SELECT cluster, dkey, source, time_ms, last_ms,
	count, type, reason, workload, uid, cluster_queue, message, preemptor,
	preemption_reason, detail, input_id FROM events" >"$OUT/rows.csv"
for mode in WAL DELETE; do
	rm -f "$OUT"/csv.db*
	cat >"$OUT/import.sql" <<EOS
PRAGMA journal_mode=$mode;
PRAGMA synchronous=FULL;
CREATE TABLE events(cluster TEXT, dkey INTEGER, source TEXT, time_ms INTEGER,
 last_ms INTEGER, count INTEGER, type TEXT, reason TEXT, workload TEXT,
 uid TEXT, cluster_queue TEXT, message TEXT, preemptor TEXT,
 preemption_reason TEXT, detail TEXT, input_id INTEGER);
.mode csv
.import $OUT/rows.csv events
EOS
	"$tool" rusage sqlite3 "$OUT/csv.db" <"$OUT/import.sql" >/dev/null \
		2>"$OUT/import.err"
	icpu=$(field cpu_ms "$OUT/import.err")
	echo "sqlite3 .import csv, journal $mode: $N rows, cpu $icpu ms, $((N * 1000 / (icpu + 1))) rows/s of CPU"
	echo "ratio audit ingest / .import, journal $mode (rows/s of CPU): $(awk -v a="$icpu" -v b="$cpu" 'BEGIN { printf "%.2f", a / b }')"
done
# a stream on standard input that is not in time order (docs/audit.md
# "Streams"): the first S events in the generator's order (each workload's
# lines together) and shuffled, piped in batches of 1000
S=${AUDIT_STREAM_EVENTS:-50000}
head -n "$S" "$OUT/events.jsonl" >"$OUT/stream.jsonl"
yes | head -c 1048576 >"$OUT/seed"
shuf --random-source="$OUT/seed" "$OUT/stream.jsonl" >"$OUT/stream-shuf.jsonl"
for f in stream stream-shuf; do
	rm -f "$OUT/$f.db"*
	"$QF" audit ingest --db "$OUT/$f.db" "$OUT/cluster.yaml" >/dev/null 2>&1
	"$tool" rusage sh -c "cat '$OUT/$f.jsonl' | '$QF' audit ingest --db '$OUT/$f.db' -" \
		>/dev/null 2>"$OUT/$f.err"
	echo "audit ingest -, $S events ($f): cpu $(field cpu_ms "$OUT/$f.err") ms, wall $(field wall_ms "$OUT/$f.err") ms, peak RSS $(field maxrss_kb "$OUT/$f.err") KB"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
