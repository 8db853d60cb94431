#!/bin/sh
# make golden: rewrite the golden outputs from the current binary.  Review
# the diff before committing it: a golden file changes only on purpose.
set -eu
QF=${1:-build/quotaflow}
cd "$(dirname "$0")/../.."
"$QF" compile examples/tenants --stdout >tests/golden/tenants/stdout.yaml 2>/dev/null
"$QF" compile examples/tenants -o tests/golden/tenants/deploy >/dev/null 2>&1
echo "golden: rewrote tests/golden/tenants (review with git diff)"
