#!/bin/sh
# Kueue conformance: runs every tests/conformance/cases/*.yaml through the
# pinned `quotaflow simulate` CLI and compares the decisions (admitted with
# which flavours, preempted, pending with which reason) with what Kueue's own
# unit tests assert.  Case format: tests/conformance/README.md.
#
# usage: QF=build/quotaflow CONFORM=build/tests/conform sh run.sh [CASE...]
# Cases named in the "Known divergences" section of docs/runtime.md are run
# and reported like the others, but their failure does not fail the run.
# Each command runs under a timeout (QF_TEST_TIMEOUT seconds, 120): a case
# that runs away fails with "timed out", known divergence or not, instead
# of hanging CI.
QF=${QF:-build/quotaflow}
CONFORM=${CONFORM:-build/tests/conform}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
CONFORM=$(cd "$(dirname "$CONFORM")" && pwd)/$(basename "$CONFORM")
cd "$(dirname "$0")/../.." || exit 2
limit=${QF_TEST_TIMEOUT:-120}

# A required suite never skips itself: a broken `help simulate` (or a
# missing binary) fails the run instead of passing it unseen.
"$QF" help simulate >/dev/null 2>&1
rc=$?
if [ $rc -ne 0 ]; then
	echo "conformance: FAIL: \`$QF help simulate\` exited $rc:" \
		"cannot run the cases"
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Names of known divergent cases: `name` at the start of a list item in the
# "Known divergences" section of docs/runtime.md.
known=""
if [ -f docs/runtime.md ]; then
	known=$(awk '/^#+ /{on = ($0 ~ /Known divergences/); next}
		on && /^[-*] `[^`]*`/ {
			s = $0; sub(/^[-*] `/, "", s); sub(/`.*/, "", s); print s
		}' docs/runtime.md)
fi
is_known() {
	for k in $known; do
		[ "$k" = "$1" ] && return 0
	done
	return 1
}

if [ $# -gt 0 ]; then
	cases="$*"
else
	cases=$(ls tests/conformance/cases/*.yaml 2>/dev/null | sort)
fi

pass=0
fail=0
kfail=0
kpass=""
failed=""
for c in $cases; do
	name=$(basename "$c" .yaml)
	# The header is everything before the first "---" line; the rest is
	# the Kubernetes objects, fed to simulate unchanged.
	awk '/^---[ \t]*$/{exit} {print}' "$c" >"$tmp/header.yaml"
	base=$(sed -n 's/^base:[ \t]*\([A-Za-z0-9._-]*\).*/\1/p' \
		"$tmp/header.yaml" | head -1)
	: >"$tmp/objects.yaml"
	if [ -n "$base" ]; then
		cat "tests/conformance/base/$base.yaml" >"$tmp/objects.yaml"
		echo "---" >>"$tmp/objects.yaml"
	fi
	awk 'on{print} /^---[ \t]*$/{on=1}' "$c" >>"$tmp/objects.yaml"
	cycles=$(sed -n 's/^cycles:[ \t]*\([0-9][0-9]*\).*/\1/p' \
		"$tmp/header.yaml" | head -1)
	# Multi-step cases: the header's `trace` list runs through --trace,
	# and `until: DURATION` replaces `cycles`.
	until=$(sed -n 's/^until:[ \t]*\([0-9a-z.]*\).*/\1/p' \
		"$tmp/header.yaml" | head -1)
	set -- --cycles "${cycles:-1}"
	[ -n "$until" ] && set -- --until "$until"
	rm -f "$tmp/trace.jsonl" # never a previous case's
	if grep -q '^trace:' "$tmp/header.yaml"; then
		"$CONFORM" --trace "$tmp/header.yaml" "$tmp/trace.jsonl" ||
			echo "conform: cannot read the trace" >>"$tmp/err"
		set -- "$@" --trace "$tmp/trace.jsonl"
	fi
	rm -f "$tmp/events.jsonl" "$tmp/state.json"
	timeout -k 5 "$limit" "$QF" simulate -f "$tmp/objects.yaml" "$@" \
		--events "$tmp/events.jsonl" --dump-state "$tmp/state.json" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	why=""
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		why="timed out: simulate ran longer than ${limit}s (QF_TEST_TIMEOUT)"
	elif [ $rc -ne 0 ]; then
		why="simulate exited $rc"
	elif grep -q '\[QF512\]' "$tmp/err"; then
		# a field the case's Kueue version does not have would be
		# simulated as absent: the case would not say what it cites
		why="simulate ignored unknown fields (QF512)"
	elif ! timeout -k 5 "$limit" "$CONFORM" "$tmp/header.yaml" "$tmp/state.json" \
		"$tmp/events.jsonl" "$tmp/want" "$tmp/got" 2>"$tmp/cerr"; then
		why="outputs unreadable"
		cat "$tmp/cerr" >>"$tmp/err"
	elif ! cmp -s "$tmp/want" "$tmp/got"; then
		why="decisions differ"
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
		is_known "$name" && kpass="$kpass $name"
		continue
	fi
	if is_known "$name" && [ "${why#timed out}" = "$why" ]; then
		kfail=$((kfail + 1))
		echo "KNOWN DIVERGENCE conformance/$name: $why"
	else
		fail=$((fail + 1))
		failed="$failed $name"
		echo "FAIL conformance/$name: $why"
	fi
	if [ -f "$tmp/want" ] && [ -f "$tmp/got" ]; then
		diff -u "$tmp/want" "$tmp/got" | sed -n '3,$p' | head -40
	fi
	sed 's/^/  stderr: /' "$tmp/err" | head -10
	rm -f "$tmp/want" "$tmp/got"
done
[ -n "$kpass" ] && echo "conformance: listed as divergent but passing:$kpass"
echo "conformance: $((pass + fail + kfail)) cases: $pass passed," \
	"$((fail + kfail)) failed ($kfail known divergences)"
[ "$fail" -eq 0 ] || { echo "conformance: unexpected failures:$failed"; exit 1; }
