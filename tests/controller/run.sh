#!/bin/sh
# Controller suites: each t_*.sh starts its own controllers on free
# loopback ports and drives them with the machine's kubectl (skipped, and
# said so, when kubectl is missing).
cd "$(dirname "$0")/../.." || exit 2
if ! command -v kubectl >/dev/null 2>&1; then
	echo "controller: kubectl not found: suites skipped"
	exit 0
fi
rc=0
for t in tests/controller/t_*.sh; do
	sh "$t" || rc=1
done
exit $rc
