#!/bin/sh
# bench/bench_compile.sh QF - compile + validate N generated tenants
# (bench/gen-tenants.sh) with `quotaflow compile DIR --stdout`, under
# bench/benchtool for CPU time and peak RSS.  Run by bench/run.sh.
#   COMPILE_SIZES="1000 10000 100000"   tenant counts
set -u
QF=${1:-build/quotaflow}
case "$QF" in /*) ;; *) QF=$(pwd)/$QF ;; esac
cd "$(dirname "$0")/.." || exit 2
. bench/lib.sh
printf "%10s %10s %10s %10s %12s %12s\n" tenants objects "cpu (s)" \
	"wall (s)" "peak MB" "KB/tenant"
status=0
for n in ${COMPILE_SIZES:-1000 10000 100000}; do
	dir=$OUT/compile-$n
	sh bench/gen-tenants.sh "$n" "$dir" || exit 2
	"$tool" rusage "$QF" compile "$dir" --stdout >"$dir/out.yaml" \
		2>"$dir/err"
	objs=$(grep -c '^kind: ' "$dir/out.yaml")
	tail -1 "$dir/err" | awk -v n="$n" -v o="$objs" '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); R[kv[1]] = kv[2] }
		printf "%10d %10d %10.2f %10.2f %12.1f %12.1f\n", n, o,
			R["cpu_ms"] / 1000, R["wall_ms"] / 1000,
			R["maxrss_kb"] / 1024, R["maxrss_kb"] / n
		exit R["exit"] != 0
	}' || status=1
	rm -f "$dir/out.yaml"
done
exit $status
