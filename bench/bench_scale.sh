#!/bin/sh
# bench/bench_scale.sh QF - costs that must stay linear in the input
# (issue 13), under bench/benchtool for CPU time and peak RSS.  Run by
# bench/run.sh; figures in docs/performance.md.
#  - compile of N tenants written as N files against the same tenants in
#    one file: per-file costs (arena blocks, position tables, freeing the
#    arenas) must not grow faster than the tenants do;
#  - compile --krm of a ResourceList of N tenants that each carry an
#    error: every diagnostic is attached to its item.
#   SCALE_FILES="1000 10000"   tenant counts for the files comparison
#   SCALE_KRM="20000 80000"    tenant counts for --krm
set -u
QF=${1:-build/quotaflow}
case "$QF" in /*) ;; *) QF=$(pwd)/$QF ;; esac
cd "$(dirname "$0")/.." || exit 2
. bench/lib.sh
status=0
# row LABEL N: print the last benchtool line of $OUT/scale.err as a row
row() {
	tail -1 "$OUT/scale.err" | awk -v l="$1" -v n="$2" '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); R[kv[1]] = kv[2] }
		printf "%-22s %8d %10.2f %12.1f %8s\n", l, n, R["cpu_ms"] / 1000,
			R["maxrss_kb"] / 1024, R["exit"]
	}'
}
printf "%-22s %8s %10s %12s %8s\n" case tenants "cpu (s)" "peak MB" exit
for n in ${SCALE_FILES:-1000 10000}; do
	one=$OUT/scale-one-$n
	many=$OUT/scale-many-$n
	sh bench/gen-tenants.sh "$n" "$one" || exit 2
	rm -rf "$many" && mkdir -p "$many"
	cp "$one/pool.yaml" "$many/"
	awk -v d="$many" 'BEGIN { f = sprintf("%s/t%06d.yaml", d, 0) }
		/^---$/ { close(f); f = sprintf("%s/t%06d.yaml", d, ++k); next }
		{ print > f }' "$one/tenants.yaml"
	"$tool" rusage "$QF" compile "$one" --stdout >/dev/null 2>"$OUT/scale.err"
	row "compile, one file" "$n" || status=1
	"$tool" rusage "$QF" compile "$many" --stdout >/dev/null 2>"$OUT/scale.err"
	row "compile, file each" "$n" || status=1
done
for n in ${SCALE_KRM:-20000 80000}; do
	sh bench/gen-krm.sh "$n" "$OUT/scale-krm-$n.yaml" bad || exit 2
	"$tool" rusage "$QF" compile --krm <"$OUT/scale-krm-$n.yaml" \
		>"$OUT/scale-krm.out" 2>"$OUT/scale.err"
	row "--krm, error each" "$n" || status=1
	# every tenant's diagnostic found its item
	refs=$(grep -c '^    kind: Tenant$' "$OUT/scale-krm.out")
	[ "$refs" -ge "$n" ] || { echo "bench: --krm: $refs of $n attached"; status=1; }
done
exit $status
