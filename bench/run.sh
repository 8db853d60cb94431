#!/bin/sh
# bench/run.sh - `make bench`: Kueue's scheduler performance scenarios in
# virtual time, a scaling benchmark, then every other bench/bench_*.sh.
#
# usage: sh bench/run.sh build/quotaflow
#   SCENARIOS="baseline large-scale"   which bench/configs/*.yaml to run
#   SCALING="1000 10000 100000"        backlog sizes of the scaling bench
#
# For each scenario, bench/gen.sh writes the objects and the --trace exactly
# as Kueue's runner creates them; `quotaflow simulate --trace --summary` runs
# it, under bench/benchtool (CPU time and peak RSS from wait4).  The tables
# put our makespan next to the perfect-packing lower bound (gen.sh) and
# Kueue's published wall time, and our usage and time to admission per
# class next to Kueue's published averages: the "Average value" / "mean"
# comments of upstream test/performance/scheduler/configs/*/rangespec.yaml
# (kubernetes-sigs/kueue ff69552e79ad).  Kueue's figures come from a real
# API server and wall clock; ours from a virtual clock, so they show
# scheduling quality side by side, not speed.
QF=${1:-build/quotaflow}
case "$QF" in /*) ;; *) QF=$(pwd)/$QF ;; esac
cd "$(dirname "$0")/.." || exit 2
BUILD=$(dirname "$QF")
OUT=$BUILD/bench
mkdir -p "$OUT"
SCENARIOS=${SCENARIOS:-baseline large-scale}
SCALING=${SCALING:-1000 10000 100000}
status=0

# Kueue's published figures: wall_ms usage_pct small medium large (avg ms).
kueue_figures() {
	case "$1" in
	baseline) echo "351116 55.9 215468 76768 16501" ;;
	large-scale) echo "1179411 38.64 700379 256413 105604" ;;
	*) echo "- - - - -" ;;
	esac
}

tool=$OUT/benchtool
# shellcheck disable=SC2046
if ! cc -O2 -std=c11 -Wall -Wextra -Werror -I. -o "$tool" bench/benchtool.c \
	$(pkg-config --cflags --libs jansson); then
	echo "bench: cannot build bench/benchtool.c" >&2
	exit 2
fi

# run NAME DIR: simulate DIR's trace; leaves DIR/summary.json, DIR/rusage.
run_sim() {
	"$tool" rusage "$QF" simulate -f "$2/objects.json" \
		--trace "$2/trace.jsonl" --summary "$2/summary.json" \
		>"$2/out" 2>"$2/err"
	rc=$?
	tail -1 "$2/err" >"$2/rusage"
	if [ $rc -ne 0 ]; then
		echo "bench: $1: simulate exited $rc" >&2
		sed 's/^/  /' "$2/err" | head -10 >&2
		return 1
	fi
	"$tool" summary "$2/summary.json" >"$2/summary.txt" || return 1
}

if ! "$QF" help simulate >/dev/null 2>&1; then
	echo "bench: simulate not available: skipped the Kueue scenarios"
else
	for s in $SCENARIOS; do
		dir=$OUT/$s
		sh bench/gen.sh "bench/configs/$s.yaml" "$dir" || exit 2
		if ! run_sim "$s" "$dir"; then
			status=1
			continue
		fi
		# shellcheck disable=SC2046
		set -- $(kueue_figures "$s")
		awk -v s="$s" -v kwall="$1" -v kuse="$2" -v ks="$3" -v km="$4" \
			-v kl="$5" '
		FILENAME ~ /bound.txt$/ {
			for (i = 1; i <= NF; i++) { split($i, kv, "="); B[kv[1]] = kv[2] }
			next
		}
		FILENAME ~ /rusage$/ {
			for (i = 1; i <= NF; i++) { split($i, kv, "="); R[kv[1]] = kv[2] }
			next
		}
		{ V[$1] = $2 }
		END {
			printf "\n== %s: %d workloads ==\n", s, B["workloads"]
			printf "quotaflow: %.2f s CPU, %.1f MB peak RSS, %.2f s wall\n", \
				R["cpu_ms"] / 1000, R["maxrss_kb"] / 1024, R["wall_ms"] / 1000
			printf "%-34s %12s %12s\n", "", "quotaflow", "Kueue"
			printf "%-34s %12.1f %12.1f\n", "makespan (s)", \
				V["makespan_ms"] / 1000, kwall / 1000
			printf "%-34s %12.1f\n", "perfect-packing bound (s)", \
				B["lower_bound_ms"] / 1000
			if (V["makespan_ms"] > 0)
				printf "%-34s %12.1f\n", "bound / makespan (%)", \
					100 * B["lower_bound_ms"] / V["makespan_ms"]
			printf "%-34s %12.1f %12s\n", "usage cq (%)", \
				V["clusterQueueClasses.cq.usage_pct"], kuse
			split("small medium large", cls, " ")
			k["small"] = ks; k["medium"] = km; k["large"] = kl
			for (i = 1; i <= 3; i++) {
				c = cls[i]; p = "workloadClasses." c "."
				printf "%-34s %12.1f %12.1f\n", \
					"avg time to admission " c " (s)", \
					V[p "avg_time_to_admission_ms"] / 1000, k[c] / 1000
				printf "%-34s %12d\n", "  workloads", V[p "count"]
				printf "%-34s %12.1f\n", "  p50 (s)", \
					V[p "p50_time_to_admission_ms"] / 1000
				printf "%-34s %12.1f\n", "  p95 (s)", \
					V[p "p95_time_to_admission_ms"] / 1000
			}
		}' "$dir/bound.txt" "$dir/rusage" "$dir/summary.txt"
	done

	echo
	echo "== scaling: cost per admission decision as the backlog grows =="
	printf "%10s %10s %12s %14s %12s\n" pending admitted "cpu (s)" \
		"us/admission" "peak MB"
	for n in $SCALING; do
		dir=$OUT/scaling-$n
		sh bench/gen.sh --scaling "$n" "$dir" || exit 2
		if ! run_sim "scaling-$n" "$dir"; then
			status=1
			continue
		fi
		awk -v n="$n" '
		FILENAME ~ /rusage$/ {
			for (i = 1; i <= NF; i++) { split($i, kv, "="); R[kv[1]] = kv[2] }
			next
		}
		$1 ~ /^workloadClasses\..*\.count$/ { adm += $2 }
		END {
			printf "%10d %10d %12.2f %14.1f %12.1f\n", n, adm, \
				R["cpu_ms"] / 1000, \
				(adm > 0 ? 1000 * R["cpu_ms"] / adm : 0), \
				R["maxrss_kb"] / 1024
		}' "$dir/rusage" "$dir/summary.txt"
	done
fi

# Benchmarks other parts contribute: bench/bench_*.sh, each given the binary.
for b in bench/bench_*.sh; do
	[ -f "$b" ] || continue
	echo
	echo "== $b =="
	sh "$b" "$QF" || status=1
done
exit $status
