#!/bin/sh
# Runs every cmocka unit-test binary given as an argument; fixtures are found
# through QF_TEST_DIR.  Prints a summary and fails if any binary fails.
QF_TEST_DIR=$(cd "$(dirname "$0")" && pwd)
export QF_TEST_DIR
pass=0
fail=0
failed=""
for t in "$@"; do
	if "$t" >"$t.log" 2>&1; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		failed="$failed $t"
		cat "$t.log"
	fi
done
echo "unit: $pass binaries passed, $fail failed"
[ "$fail" -eq 0 ] || { echo "failed:$failed"; exit 1; }
