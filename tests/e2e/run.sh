#!/bin/sh
# End-to-end CLI tests: one case per file in tests/e2e/cases/*.t (curl's
# tests/data idea).  A case file holds header lines, then optional exact
# sections:
#   args: validate tests/fixtures/x.yaml   (shell words, run from the repo root)
#   stdin: tests/fixtures/in.yaml          (optional)
#   exit: 1
#   stdout-has: some text                  (fixed string; repeatable)
#   stderr-has: file.yaml:3:5: error       (fixed string; repeatable)
#   stdout-not: / stderr-not:              (must not appear)
#   --- stdout                             (the rest, up to the next ---, exactly)
#   --- stderr
#   needs: shared                          (skip when the upstream oracles are absent)
#   setup: compile examples/tenants -o "$tmp/t"  (optional, repeatable: run
#                                          first, must exit 0; $tmp is scratch)
#   setup-sh: mkfifo "$tmp/x/p.yaml"       (a shell command run first, from
#                                          the repo root; must exit 0)
#   after-sh: test -f "$tmp/x/keep"        (a shell check run after; must
#                                          exit 0)
# Every command runs under a timeout (QF_E2E_TIMEOUT seconds, 60), so a case
# that hangs fails instead of hanging the suite.
# Lines starting with # are comments.  $QF is the binary under test and
# $SHARED the folder of upstream oracles (Kueue CRDs and examples).
QF=${QF:-build/quotaflow}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
export QF
cd "$(dirname "$0")/../.." || exit 2
if [ -z "${QF_SHARED_DIR:-}" ] && [ -d ../shared/kueue-crds ]; then
	QF_SHARED_DIR=$(cd ../shared && pwd)
fi
SHARED=${QF_SHARED_DIR:-}
export SHARED
tmp=$(mktemp -d)
export tmp
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
limit=${QF_E2E_TIMEOUT:-60}
pass=0
fail=0
skipped=0
# QF_E2E_ONLY="tests/e2e/cases/audit-*.t" runs a subset
for c in ${QF_E2E_ONLY:-tests/e2e/cases/*.t}; do
	[ -f "$c" ] || continue
	name=$(basename "$c" .t)
	if grep -q '^needs: shared' "$c" && [ -z "$SHARED" ]; then
		skipped=$((skipped + 1))
		continue
	fi
	# a misspelt header line would be an assertion never made
	bad=$(awk '/^--- (stdout|stderr)$/ { exit }
		/^#/ || /^$/ { next }
		/^(args|stdin|exit|stdout-has|stderr-has|stdout-not|stderr-not|needs|setup|setup-sh|after-sh): / { next }
		{ print; exit }' "$c")
	if [ -n "$bad" ]; then
		fail=$((fail + 1))
		echo "FAIL e2e/$name: unknown line '$bad'"
		continue
	fi
	args=$(sed -n 's/^args: //p' "$c" | head -1)
	stdin=$(sed -n 's/^stdin: //p' "$c" | head -1)
	want=$(sed -n 's/^exit: //p' "$c" | head -1)
	[ -n "$stdin" ] || stdin=/dev/null
	setup_ok=1
	while IFS= read -r line; do
		case "$line" in
		setup:\ *)
			# shellcheck disable=SC2086
			eval "set -- ${line#setup: }"
			timeout "$limit" "$QF" "$@" </dev/null >"$tmp/setup.out" 2>&1 || setup_ok=0
			;;
		setup-sh:\ *)
			timeout "$limit" sh -c "${line#setup-sh: }" </dev/null >"$tmp/setup.out" 2>&1 || setup_ok=0
			;;
		esac
	done <"$c"
	# shellcheck disable=SC2086
	eval "set -- $args"
	timeout "$limit" "$QF" "$@" <"$stdin" >"$tmp/out" 2>"$tmp/err"
	got=$?
	ok=1
	why=""
	[ "$got" = 124 ] && why="timed out after ${limit}s;"
	while IFS= read -r line; do
		case "$line" in
		after-sh:\ *)
			timeout "$limit" sh -c "${line#after-sh: }" </dev/null >"$tmp/after.out" 2>&1 || {
				ok=0
				why="$why after-sh failed: ${line#after-sh: } $(head -3 "$tmp/after.out")"
			}
			;;
		esac
	done <"$c"
	if [ $setup_ok = 0 ]; then
		ok=0
		why="setup failed: $(head -3 "$tmp/setup.out")"
	fi
	if [ "$got" != "${want:-0}" ]; then
		ok=0
		why="$why exit $got, want ${want:-0}"
	fi
	while IFS= read -r line; do
		case "$line" in
		stdout-has:\ *) f=out; s=${line#stdout-has: }; neg=0 ;;
		stderr-has:\ *) f=err; s=${line#stderr-has: }; neg=0 ;;
		stdout-not:\ *) f=out; s=${line#stdout-not: }; neg=1 ;;
		stderr-not:\ *) f=err; s=${line#stderr-not: }; neg=1 ;;
		*) continue ;;
		esac
		if grep -qF -- "$s" "$tmp/$f"; then
			[ $neg = 1 ] && { ok=0; why="$why; std$f has '$s'"; }
		else
			[ $neg = 0 ] && { ok=0; why="$why; std$f lacks '$s'"; }
		fi
	done <"$c"
	for sec in stdout stderr; do
		if grep -q "^--- $sec\$" "$c"; then
			awk -v s="--- $sec" '$0==s{on=1;next} /^--- (stdout|stderr)$/{on=0} on' "$c" >"$tmp/want"
			f=${sec#std}
			if ! cmp -s "$tmp/want" "$tmp/$f"; then
				ok=0
				why="$why; $sec differs"
				diff -u "$tmp/want" "$tmp/$f" | head -40
			fi
		fi
	done
	if [ $ok = 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL e2e/$name: $why"
		sed 's/^/  stderr: /' "$tmp/err" | head -20
	fi
done
echo "e2e: $pass passed, $fail failed, $skipped skipped (no upstream oracles)"
[ "$fail" -eq 0 ]
