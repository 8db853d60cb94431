#!/bin/sh
# The per-test timeouts of `make test` (issue 13): a unit binary, a
# conformance case and a fuzz replay input that run away each fail with a
# message naming them, within seconds, instead of hanging CI.  (e2e cases
# have their own, QF_E2E_TIMEOUT, tested in tests/e2e/run.sh's cases.)
# usage: BUILD=build sh tests/check-timeouts.sh
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# expect NAME TEXT CMD...: CMD must fail and print TEXT
expect() {
	name=$1 text=$2
	shift 2
	"$@" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc -eq 0 ] || ! grep -qF -- "$text" "$tmp/out"; then
		echo "FAIL timeouts/$name: exit $rc, wanted a failure saying '$text'"
		sed 's/^/  /' "$tmp/out" | head -10
		fail=$((fail + 1))
	fi
}
printf '#!/bin/sh\nsleep 30\n' >"$tmp/hang"
printf '#!/bin/sh\n[ "$1" = help ] && exit 0\nsleep 30\n' >"$tmp/qf"
chmod +x "$tmp/hang" "$tmp/qf"
mkfifo "$tmp/input.yaml"
export QF_TEST_TIMEOUT=1
expect unit "$tmp/hang timed out: ran longer than 1s" \
	sh tests/run-unit.sh "$tmp/hang"
expect conformance "timed out: simulate ran longer than 1s" \
	env QF="$tmp/qf" CONFORM="$BUILD/tests/conform" \
	sh tests/conformance/run.sh \
	"$(ls tests/conformance/cases/*.yaml | head -1)"
expect fuzz-replay "replay: timed out: $tmp/input.yaml" \
	"$BUILD/fuzz/replay_doc" "$tmp/input.yaml"
echo "timeouts: 3 runners checked, $fail failed"
[ "$fail" -eq 0 ]
