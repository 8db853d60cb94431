#!/bin/sh
# bench/bench_lint.sh QF - what the pre-merge gate costs next to the
# commands it builds on, on the same inputs, under bench/benchtool (CPU
# time and peak RSS from wait4):
#   1. lint of N tenants (bench/gen-tenants.sh) against compile --stdout;
#   2. lint of M raw Kueue objects (bench/bench_validate.sh's generator)
#      against validate;
#   3. diff of two revisions of an N-tenant git repository (the second
#      changes every 100th tenant) against two compiles.
# usage: sh bench/bench_lint.sh build/quotaflow [N [M]]   (10000, 50000)
set -u
QF=${1:-build/quotaflow}
N=${2:-10000}
M=${3:-50000}
case "$QF" in /*) ;; *) QF=$(pwd)/$QF ;; esac
cd "$(dirname "$0")/.." || exit 2
OUT=$(dirname "$QF")/bench
tool=$OUT/benchtool
mkdir -p "$OUT"
if [ ! -x "$tool" ]; then
	# shellcheck disable=SC2046
	cc -O2 -std=c11 -Wall -Wextra -Werror -I. -o "$tool" bench/benchtool.c \
		$(pkg-config --cflags --libs jansson) || exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run LABEL WANT_EXIT ARGS...: one timed run, one table line
run() {
	label=$1 want=$2
	shift 2
	"$tool" rusage "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	tail -1 "$tmp/err" | awk -v l="$label" '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); R[kv[1]] = kv[2] }
		printf "%-34s cpu %6d ms  wall %6d ms  peak %5.0f MB\n", l,
			R["cpu_ms"], R["wall_ms"], R["maxrss_kb"] / 1024
	}'
	[ "$rc" = "$want" ] || { echo "  exit $rc, want $want"; head -5 "$tmp/err"; return 1; }
}

status=0
sh bench/gen-tenants.sh "$N" "$tmp/t" || exit 2
run "compile $N tenants --stdout" 0 "$QF" compile "$tmp/t" --stdout || status=1
run "lint $N tenants" 0 "$QF" lint "$tmp/t" || status=1

sh bench/bench_validate.sh "$QF" "$M" "$tmp/k" || exit 2
run "validate $M objects" 0 "$QF" validate "$tmp/k" || status=1
# the generated objects break policy on purpose (shared selectors, ...):
# lint reports, so it exits 1
run "lint $M objects" 1 "$QF" lint "$tmp/k" || status=1

r=$tmp/repo
mkdir -p "$r"
cp "$tmp/t/pool.yaml" "$tmp/t/tenants.yaml" "$r/"
git -C "$r" init -q -b main
git -C "$r" add -A
git -C "$r" -c user.email=b@b -c user.name=b commit -qm base
awk '/^    committed: / && (++n % 100) == 0 { sub(/committed: [0-9]+/, "committed: 1") } { print }' \
	"$tmp/t/tenants.yaml" >"$r/tenants.yaml"
git -C "$r" -c user.email=b@b -c user.name=b commit -qam head
run "diff HEAD~1 HEAD ($N tenants)" 0 "$QF" diff HEAD~1 HEAD --repo "$r" || status=1
grep '^quotaflow diff' "$tmp/out"
exit $status
