#!/bin/sh
# Kueue's admission rules through `quotaflow validate`: every
# tests/webhook/cases/*.yaml restates one entry of Kueue's own webhook and
# CRD-validation tests (pkg/webhooks/*_test.go,
# test/integration/singlecluster/webhook/core/*_test.go) and checks that
# validate accepts what Kueue's API server accepts and refuses what it
# refuses, at the same field.  Case format: tests/webhook/README.md.
#
# usage: QF=build/quotaflow sh tests/webhook/run.sh [CASE...]
QF=${QF:-build/quotaflow}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
cd "$(dirname "$0")/../.." || exit 2

# a required suite never skips itself
"$QF" help validate >/dev/null 2>&1 || {
	echo "webhook: FAIL: \`$QF help validate\` failed: cannot run the cases"
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -gt 0 ]; then
	cases="$*"
else
	cases=$(ls tests/webhook/cases/*.yaml 2>/dev/null | sort)
fi
[ -n "$cases" ] || { echo "webhook: FAIL: no cases"; exit 1; }

pass=0
fail=0
failed=""
for c in $cases; do
	n=$(basename "$c" .yaml)
	# the header is the first document; the objects follow the first
	# line that is exactly ---
	awk 'f{print} /^---$/{f=1}' "$c" >"$tmp/$n.yaml"
	awk '/^---$/{exit} {print}' "$c" >"$tmp/$n.head"
	want=$(sed -n 's/^expect: *//p' "$tmp/$n.head" | tr -d ' ')
	timeout 60 "$QF" validate --format json "$tmp/$n.yaml" >"$tmp/$n.json" 2>"$tmp/$n.err"
	rc=$?
	why=""
	case "$want" in
	valid) [ $rc -eq 0 ] || why="refused (exit $rc), Kueue accepts it" ;;
	invalid) [ $rc -eq 1 ] || why="exit $rc, Kueue refuses it" ;;
	*) why="expect: must be valid or invalid" ;;
	esac
	# each `- ` item under errors: must be in one error's path + message
	if [ -z "$why" ] && [ "$want" = invalid ]; then
		python3 - "$tmp/$n.head" "$tmp/$n.json" >"$tmp/$n.miss" <<'PY'
import json, sys
head = open(sys.argv[1]).read().splitlines()
want, on = [], False
for l in head:
    if l.startswith('errors:'):
        on = True
        continue
    if on and l.startswith('  - '):
        v = l[4:].strip()
        if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
            v = v[1:-1]
        want.append(v)
    elif on and l and not l.startswith(' '):
        on = False
got = [d.get('path', '') + ': ' + d.get('message', '')
       for d in json.load(open(sys.argv[2])).get('diagnostics', [])
       if d.get('severity') == 'error']
for w in want:
    if not any(w in g for g in got):
        print('missing error "%s"; got: %s' % (w, got))
PY
		[ -s "$tmp/$n.miss" ] && why=$(cat "$tmp/$n.miss")
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		failed="$failed $n"
		echo "FAIL webhook/$n: $why"
		python3 -c 'import json,sys
for d in json.load(open(sys.argv[1])).get("diagnostics", [])[:5]:
    print("  %s %s: %s" % (d.get("severity"), d.get("path", ""), d.get("message")))' \
			"$tmp/$n.json" 2>/dev/null
		sed 's/^/  /' "$tmp/$n.err" | head -3
	fi
done
echo "webhook: $((pass + fail)) cases: $pass passed, $fail failed"
[ $fail -eq 0 ] || { echo "webhook: failures:$failed"; exit 1; }
