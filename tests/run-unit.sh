#!/bin/sh
# Runs every cmocka unit-test binary given as an argument; fixtures are found
# through QF_TEST_DIR.  Prints a summary and fails if any binary fails.
# Each binary runs under a timeout (QF_TEST_TIMEOUT seconds, 600: generous
# for `make check`'s sanitizer build), so a runaway test fails with a
# message naming it instead of hanging CI.
QF_TEST_DIR=$(cd "$(dirname "$0")" && pwd)
export QF_TEST_DIR
# The upstream oracles (Kueue CRDs and examples) live beside the repository
# in the workspace; a clone elsewhere can point at them with QF_SHARED_DIR.
if [ -z "${QF_SHARED_DIR:-}" ] && [ -d "$QF_TEST_DIR/../../shared/kueue-crds" ]; then
	QF_SHARED_DIR=$(cd "$QF_TEST_DIR/../../shared" && pwd)
fi
if [ -n "${QF_SHARED_DIR:-}" ]; then
	export QF_SHARED_DIR
else
	echo "unit: upstream oracles not found (../shared or QF_SHARED_DIR): oracle tests skip"
fi
limit=${QF_TEST_TIMEOUT:-600}
pass=0
fail=0
failed=""
for t in "$@"; do
	timeout -k 5 "$limit" "$t" >"$t.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		failed="$failed $t"
		cat "$t.log"
		if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
			echo "unit: $t timed out: ran longer than ${limit}s" \
				"(QF_TEST_TIMEOUT)"
		fi
	fi
done
echo "unit: $pass binaries passed, $fail failed"
[ "$fail" -eq 0 ] || { echo "failed:$failed"; exit 1; }
