#!/bin/sh
# bench/audit_compare.sh OLD NEW [WORK_DIR] - ingest the same inputs with two
# quotaflow binaries and compare everything a user sees: every view, the
# derived tables d_admissions/d_usage/d_lending/d_preemptions/d_clusters, the
# report in every text format, the export bundle and verify's output.
# Schema details that differ on purpose (user_version, the schema_version
# of manifest.json and the hashes that cover it) are normalised away.
#
# Each scenario is ingested in several ways with NEW: in one ingest; as
# several ingests of consecutive chunks of its event lines (the incremental
# derivation); as chunks in reverse order (events older than what was
# derived: a re-derivation); and on standard input, derived at its end and
# derived between batches.  OLD always ingests everything at once, so all
# must match it.  Exit 0 when everything matches, 1 otherwise.
#
# usage: sh bench/audit_compare.sh /tmp/qf-main build/quotaflow [dir]
#   AUDIT_COMPARE_BENCH=N adds bench/gen-events.sh N and the same events
#   from bench/gen-k8s-events.sh N (default 20000; 0: none)
OLD=$1
NEW=$2
W=${3:-$(mktemp -d)}
[ -x "$OLD" ] && [ -x "$NEW" ] || {
	echo "usage: $0 OLD_BINARY NEW_BINARY [WORK_DIR]" >&2
	exit 2
}
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$W"
fail=0
F=tests/fixtures/audit
NB=${AUDIT_COMPARE_BENCH:-20000}

# ing BIN ARGS...: an ingest whose exit code must not be 2 (a database
# or internal error); 1 (rejected records) is compared through the views
ing() {
	bin=$1
	shift
	"$bin" audit ingest "$@" >"$W/ing.out" 2>&1
	rc=$?
	if [ $rc -ge 2 ]; then
		echo "INGEST FAILED ($rc): $bin audit ingest $*"
		cat "$W/ing.out"
		fail=1
	fi
}

# dump DB OUTDIR BIN: everything a user can read of one database
dump() {
	db=$1 out=$2 bin=$3
	mkdir -p "$out"
	for v in audit_waits audit_borrowing audit_preemptions \
		audit_policy_changes audit_breaches; do
		"$bin" audit query --db "$db" "select * from $v" >"$out/$v.tsv" 2>&1
	done
	for t in d_admissions d_usage d_lending d_preemptions d_clusters \
		d_borrowing; do
		# row order too: readers of the raw tables see it; d_usage is
		# a view since schema 7, in the order it documents (a table
		# before it: the same order asked for)
		order=rowid
		[ $t = d_usage ] &&
			order="cluster, cluster_queue, flavor, resource, at_ms"
		sqlite3 "$db" "select * from $t order by $order" >"$out/$t.raw" 2>&1
		sort "$out/$t.raw" >"$out/$t.sorted"
	done
	# the view's own order (no order by) is the one documented
	sqlite3 "$db" "select * from d_usage" >"$out/d_usage.view" 2>&1
	if [ "$bin" = "$NEW" ] && ! cmp -s "$out/d_usage.raw" "$out/d_usage.view"; then
		echo "d_usage's order is not the documented one" >>"$out/errors"
	fi
	rm -f "$out/d_usage.view"
	sqlite3 "$db" "select count(*) from events" >"$out/events.count"
	# what was stored, whatever its ids (schema 7 numbers a file's
	# events in time order, schema 6 in file order)
	sqlite3 "$db" "select cluster, dkey, source, time_ms, last_ms, count,
		type, reason, workload, uid, cluster_queue, message, preemptor,
		preemption_reason, detail from events
		order by cluster, time_ms, source, dkey" >"$out/events.content"
	sqlite3 "$db" "select id, quote(chain) from events order by id desc limit 1; select id, cluster, name, format, sha256, bytes, records, added, rejected from inputs" >"$out/events.meta"
	for f in text markdown json csv html; do
		"$bin" audit report --db "$db" --format "$f" -o "$out/report.$f" \
			>/dev/null 2>&1 || echo "report $f failed" >>"$out/errors"
	done
	rm -rf "$out/bundle"
	"$bin" audit export --db "$db" --out "$out/bundle" >/dev/null 2>&1 ||
		echo "export failed" >>"$out/errors"
	"$bin" audit verify "$out/bundle" >"$out/verify.raw" 2>&1
	echo "exit $?" >>"$out/verify.raw"
	# the views derived again from the bundle (quotaflow after 1b21574)
	# must be the same; what is compared is what a bundle without
	# evidence/ says, so that builds on either side of it compare
	if grep -q '^views: ' "$out/verify.raw" &&
		! grep -q '^views: .* the same$' "$out/verify.raw"; then
		echo "verify of the bundle: $(grep '^views: ' "$out/verify.raw")" >>"$out/errors"
	fi
	nev=$(find "$out/bundle/evidence" -type f 2>/dev/null | wc -l)
	awk -v n="$nev" '/^views: / { next }
		/^verified: [0-9]+ files,/ { $2 = $2 - n }
		{ print }' "$out/verify.raw" >"$out/verify.txt"
	rm -f "$out/verify.raw"
	"$bin" audit verify --db "$db" "$out/bundle" >"$out/verify-db.txt" 2>&1
	echo "exit $?" >>"$out/verify-db.txt"
	# files of the bundle that do not mention the schema version; the
	# evidence tables (after 1b21574) are what the database holds,
	# compared above, and verify derives the views from them
	(cd "$out/bundle" && for f in $(find . -type f | sort); do
		case "$f" in
		./manifest.json | *statement* | *.intoto.json | ./evidence/*) ;;
		*) cksum <"$f" | sed "s|^|$f |" ;;
		esac
	done) >"$out/bundle.sums"
	sed 's/"schema_version": *[0-9]*/"schema_version": X/' \
		"$out/bundle/manifest.json" 2>/dev/null |
		awk '/^    \{$/ { obj = $0; inobj = 1; next }
		inobj { obj = obj "\n" $0
			if ($0 ~ /^    \},?$/) { inobj = 0; if (obj !~ /"evidence\//) print obj }
			next }
		{ print }' | grep -v '"sha256"' >"$out/manifest.norm"
	rm -rf "$out/bundle"
}

# compare NAME: old/NAME against each new/NAME-*
compare() {
	for d in "$W/new/$1"-*; do
		[ -d "$d" ] || continue
		if diff -r -x '*.keep' -x '*.one' "$W/old/$1" "$d" >"$d.diff" 2>&1; then
			echo "same: $(basename "$d")"
		else
			echo "DIFFERENT: $(basename "$d") (see $d.diff)"
			head -20 "$d.diff"
			fail=1
		fi
	done
}

# scenario NAME CLUSTER_FILES... -- EVENT_FILE (JSON lines)
scenario() {
	name=$1
	shift
	files=
	while [ "$1" != "--" ]; do
		files="$files $1"
		shift
	done
	ev=$2
	rm -rf "$W/$name".* "$W/old/$name" "$W/new/$name"-*
	# shellcheck disable=SC2086
	ing "$OLD" --db "$W/$name.old.db" $files "$ev"
	dump "$W/$name.old.db" "$W/old/$name" "$OLD"
	# shellcheck disable=SC2086
	ing "$NEW" --db "$W/$name.one.db" $files "$ev"
	dump "$W/$name.one.db" "$W/new/$name-one" "$NEW"
	# consecutive chunks, each its own ingest (incremental derivation);
	# only JSON lines can be cut into chunks
	if head -c 11 "$ev" | grep -q '{"time_ms"'; then
		chunks "$name" "$files" "$ev"
	fi
	# the stream: all event lines on standard input at once, derived at
	# the end (the default --derive-interval), and derived whenever due
	# after a batch of 1000 lines (a mix of derived and deferred batches)
	# shellcheck disable=SC2086
	ing "$NEW" --db "$W/$name.stdin.db" $files
	ing "$NEW" --db "$W/$name.stdin.db" - <"$ev"
	dump "$W/$name.stdin.db" "$W/new/$name-stdin" "$NEW"
	# shellcheck disable=SC2086
	ing "$NEW" --db "$W/$name.eager.db" $files
	ing "$NEW" --db "$W/$name.eager.db" --derive-interval 1ms - <"$ev"
	dump "$W/$name.eager.db" "$W/new/$name-stdin-eager" "$NEW"
	# the inputs and the chain differ by construction when the events
	# come in several ingests
	for f in events.meta bundle.sums manifest.norm verify.txt verify-db.txt; do
		cp "$W/new/$name-one/$f" "$W/old/$name/$f.one"
		mv "$W/old/$name/$f" "$W/old/$name/$f.keep"
	done
	for d in "$W/new/$name"-*; do
		[ -d "$d" ] || continue
		rm -f "$d/events.meta" "$d/bundle.sums" "$d/manifest.norm" \
			"$d/verify.txt" "$d/verify-db.txt"
	done
	compare "$name"
	# the one-ingest database matches in full
	for f in events.meta bundle.sums manifest.norm verify.txt verify-db.txt; do
		if ! cmp -s "$W/old/$name/$f.keep" "$W/old/$name/$f.one"; then
			echo "DIFFERENT: $name-one $f"
			diff "$W/old/$name/$f.keep" "$W/old/$name/$f.one" | head
			fail=1
		fi
	done
}

# chunks NAME FILES EVENTS: cut EVENTS into 5 ingests, in order and reversed
chunks() {
	name=$1 files=$2 ev=$3
	n=$(wc -l <"$ev")
	sz=$(((n + 4) / 5))
	[ "$sz" -gt 0 ] || sz=1
	rm -f "$W/$name.chunk."*
	split -l "$sz" -d "$ev" "$W/$name.chunk."
	# shellcheck disable=SC2086
	ing "$NEW" --db "$W/$name.inc.db" $files
	for c in "$W/$name.chunk."*; do
		ing "$NEW" --db "$W/$name.inc.db" "$c"
	done
	dump "$W/$name.inc.db" "$W/new/$name-chunks" "$NEW"
	ing "$NEW" --db "$W/$name.rev.db" $files
	for c in $(ls -r "$W/$name.chunk."*); do
		ing "$NEW" --db "$W/$name.rev.db" "$c"
	done
	dump "$W/$name.rev.db" "$W/new/$name-reverse" "$NEW"
	# events of the same instant and rank are taken in storage order,
	# which a reversed input changes: only the sorted rows must match
	rm -f "$W/new/$name-reverse/"*.raw
	for f in "$W/old/$name/"*.raw; do
		cp "$f" "$W/new/$name-reverse/"
	done
}

mkdir -p "$W/old" "$W/new"
"$NEW" simulate -f $F/cluster.yaml --trace $F/trace.jsonl \
	--events "$W/ev-sc.jsonl" >/dev/null 2>&1
scenario sc $F/cluster.yaml -- "$W/ev-sc.jsonl"
"$NEW" simulate -f $F/revise/cluster.yaml --trace $F/revise/trace.jsonl \
	--events "$W/ev-rv.jsonl" >/dev/null 2>&1
scenario rv $F/revise/cluster.yaml $F/revise/revisions.yaml -- "$W/ev-rv.jsonl"
"$NEW" simulate -f $F/waiting/cluster.yaml --trace $F/waiting/trace.jsonl \
	--events "$W/ev-wt.jsonl" >/dev/null 2>&1
scenario wt $F/waiting/cluster.yaml -- "$W/ev-wt.jsonl"
"$NEW" simulate -f $F/waiting/cluster.yaml \
	--trace $F/waiting/trace-full.jsonl --events "$W/ev-wf.jsonl" >/dev/null 2>&1
scenario wf $F/waiting/cluster.yaml $F/waiting/k8s-queues.yaml -- "$W/ev-wf.jsonl"
scenario k8s $F/cluster.yaml $F/waiting/k8s-queues.yaml \
	$F/waiting/k8s-workloads.yaml $F/k8s-events-v1.json -- $F/k8s-events.json
scenario alog $F/cluster.yaml $F/audit-log.jsonl -- "$W/ev-sc.jsonl"
# prices: the report's cost, summed key by key in d_usage's order
scenario price $F/cluster.yaml $F/pool.yaml -- "$W/ev-sc.jsonl"
# a preemptor seen only after its victim, whose queue changes later (D7:
# filled in at the end from its last state)
cat >"$W/ev-late.jsonl" <<'EOE'
{"time_ms":0,"reason":"QuotaReserved","workload":"ns/v","clusterQueue":"q0","message":"m","usage":{"f":{"cpu":"1"}}}
{"time_ms":1000,"reason":"Preempted","workload":"ns/v","clusterQueue":"q0","message":"m","preemptor":"ns/p","preemptionReason":"InClusterQueue"}
{"time_ms":2000,"reason":"QuotaReserved","workload":"ns/p","clusterQueue":"q1","message":"m","usage":{"f":{"cpu":"1"}}}
{"time_ms":3000,"reason":"QuotaReserved","workload":"ns/p","clusterQueue":"q2","message":"m","usage":{"f":{"cpu":"1"}}}
{"time_ms":4000,"reason":"Finished","workload":"ns/p","clusterQueue":"q2","message":"m"}
EOE
scenario late $F/cluster.yaml -- "$W/ev-late.jsonl"
# a preemptor named by its uid, which a later Kubernetes Event makes known
cat >"$W/ev-uid.jsonl" <<'EOE'
{"time_ms":0,"reason":"QuotaReserved","workload":"ns/v","clusterQueue":"q0","message":"m","usage":{"f":{"cpu":"1"}}}
{"time_ms":1000,"reason":"Preempted","workload":"ns/v","clusterQueue":"q0","message":"m","preemptor":"uid:u-p"}
{"apiVersion":"v1","kind":"Event","metadata":{"name":"p.1","namespace":"ns","uid":"e1"},"involvedObject":{"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload","name":"p","namespace":"ns","uid":"u-p"},"reason":"Pending","message":"waiting","type":"Warning","firstTimestamp":"1970-01-01T00:00:05Z","lastTimestamp":"1970-01-01T00:00:05Z","count":1}
EOE
scenario uid $F/cluster.yaml -- "$W/ev-uid.jsonl"
# quota that revisions drop, a deleted ClusterQueue, a cohort tree whose
# inner cohort is deleted, a breach judged on a pending event's request
# (docs/audit.md D3, D6, D8)
FD=$F/fidelity
scenario fdrop $FD/cluster.yaml $FD/drop-a100.yaml -- $FD/events.jsonl
scenario fprice $FD/cluster.yaml $F/pool.yaml -- $FD/events.jsonl
scenario fdel $FD/cluster.yaml $FD/delete-qa.jsonl -- $FD/events.jsonl
scenario ftree $FD/cohorts.yaml $FD/delete-c.jsonl -- $FD/cohort-events.jsonl
"$NEW" simulate -f $FD/cohorts.yaml --trace $FD/tree-trace.jsonl \
	--events "$W/ev-ft.jsonl" >/dev/null 2>&1
scenario fsim $FD/cohorts.yaml -- "$W/ev-ft.jsonl"
"$NEW" simulate -f $F/cluster.yaml --trace $FD/pending-trace.jsonl \
	--until 150s --events "$W/ev-fp.jsonl" >/dev/null 2>&1
scenario fpend $F/cluster.yaml -- "$W/ev-fp.jsonl"
# a ClusterQueue terminating from 20 s to its removal at 100 s (D3, D8,
# D11), from an audit log and from a watch
FT=$F/terminating
"$NEW" simulate -f $FT/cluster.yaml --trace $FT/trace.jsonl \
	--start 2026-06-12T09:00:00Z --events "$W/ev-tm.jsonl" >/dev/null 2>&1
scenario fterm $FT/cluster.yaml $FT/audit-log.jsonl -- "$W/ev-tm.jsonl"
scenario fwatch $FT/cluster.yaml $FT/watch.json -- "$W/ev-tm.jsonl"
if [ "$NB" -gt 0 ]; then
	sh bench/gen-events.sh "$NB" "$W/gen" >/dev/null
	scenario gen "$W/gen/cluster.yaml" -- "$W/gen/events.jsonl"
	# the same events as `kubectl get events -A -o json` prints them
	sh bench/gen-k8s-events.sh "$NB" "$W/genk" >/dev/null
	scenario genk "$W/genk/cluster.yaml" -- "$W/genk/k8s-events.json"
fi
[ $fail = 0 ] && echo "audit_compare: all the same" ||
	echo "audit_compare: DIFFERENCES (work dir $W)"
exit $fail
