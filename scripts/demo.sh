#!/bin/sh
# make demo: the whole story on the bundled examples.  Each step prints what
# it runs; later steps appear as the commands they need exist.
set -u
QF=${1:-build/quotaflow}
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }
has() { "$QF" help "$1" >/dev/null 2>&1; }

echo "Quotaflow demo: GPU budgets in, Kueue policy out."
if has validate; then
	step "$QF" validate examples
fi
if has compile; then
	out=$(mktemp -d)
	step "$QF" compile examples/tenants -o "$out/deploy"
	step ls -R "$out/deploy"
	step cat "$out/deploy/clusterqueue/applied-ai.yaml"
	step "$QF" validate "$out/deploy"
	rm -rf "$out"
fi
if has simulate && [ -d examples/simulate ]; then
	step "$QF" simulate -f examples/simulate --events /dev/stdout
fi
exit 0
