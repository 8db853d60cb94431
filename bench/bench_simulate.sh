#!/bin/sh
# bench/bench_simulate.sh - the costs of `quotaflow simulate` around the
# engine (issue 13): loading a large cluster, --summary over many
# workloads, and a trace given in reverse time order, each next to a
# reference run that differs only in the part measured, under
# bench/benchtool (CPU time = user + system, peak RSS, from wait4).
#
#   load   N ClusterQueues (each with a Namespace and a LocalQueue, one
#          ResourceFlavor): simulate --cycles 0, i.e. load and build the
#          engine; reference: validate of the same file (the loader alone).
#   summary  Kueue's large-scale scenario (50,000 workloads, bench/gen.sh):
#          simulate --trace with --summary; reference: without.
#   trace  a trace of M lines (one submit, then finish lines) in reverse
#          time order; reference: the same lines in time order.
# Targets: each run within about the time of its reference.
#
# usage: sh bench/bench_simulate.sh build/quotaflow [N_CQ] [M_LINES]
QF=${1:-build/quotaflow}
N=${2:-100000}
M=${3:-1000000}
case "$QF" in /*) ;; *) QF=$(pwd)/$QF ;; esac
cd "$(dirname "$0")/.." || exit 2
tool=$(dirname "$QF")/bench/benchtool
if [ ! -x "$tool" ]; then
	mkdir -p "$(dirname "$tool")"
	# shellcheck disable=SC2046
	cc -O2 -std=c11 -Wall -Wextra -Werror -I. -o "$tool" bench/benchtool.c \
		$(pkg-config --cflags --libs jansson) || exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# run LABEL ARG...: one timed run of quotaflow, one table line
run() {
	label=$1
	shift
	"$tool" rusage "$QF" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	tail -1 "$tmp/err" | awk -v l="$label" '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); R[kv[1]] = kv[2] }
		printf "  %-34s cpu %6d ms  wall %6d ms  peak %5.0f MB\n", l,
			R["cpu_ms"], R["wall_ms"], R["maxrss_kb"] / 1024
	}'
	[ "$rc" = 0 ] || { head -5 "$tmp/err"; status=1; }
}

awk -v n="$N" 'BEGIN {
	printf "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[\n"
	printf "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"rf\"}}"
	for (i = 0; i < n; i++) {
		q = sprintf("q%06d", i)
		printf ",\n{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"%s\"},\"spec\":{\"cohortName\":\"c%d\",\"namespaceSelector\":{},\"resourceGroups\":[{\"coveredResources\":[\"cpu\"],\"flavors\":[{\"name\":\"rf\",\"resources\":[{\"name\":\"cpu\",\"nominalQuota\":\"10\"}]}]}]}}", q, i % 100
		printf ",\n{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"%s\"}}", q
		printf ",\n{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"LocalQueue\",\"metadata\":{\"name\":\"main\",\"namespace\":\"%s\"},\"spec\":{\"clusterQueue\":\"%s\"}}", q, q
	}
	printf "\n]}\n"
}' >"$tmp/cqs.json"
echo "bench_simulate: load $N ClusterQueues ($(($(wc -c <"$tmp/cqs.json") / 1048576)) MiB of JSON)"
run "validate (reference: the loader)" validate "$tmp/cqs.json"
run "simulate --cycles 0" simulate -f "$tmp/cqs.json" --cycles 0

sh bench/gen.sh bench/configs/large-scale.yaml "$tmp/ls" >/dev/null || exit 2
echo "bench_simulate: --summary on the large-scale scenario" \
	"($(wc -l <"$tmp/ls/trace.jsonl") workloads)"
run "simulate --trace (reference)" simulate -f "$tmp/ls/objects.json" \
	--trace "$tmp/ls/trace.jsonl"
run "simulate --trace --summary" simulate -f "$tmp/ls/objects.json" \
	--trace "$tmp/ls/trace.jsonl" \
	--summary "$tmp/summary.json"

awk -v m="$M" 'BEGIN {
	print "{\"at_ms\":0,\"op\":\"submit\",\"object\":{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"j\",\"namespace\":\"q000000\",\"labels\":{\"kueue.x-k8s.io/queue-name\":\"main\"}},\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}}}}"
	for (i = 1; i < m; i++)
		printf "{\"at_ms\":%d,\"op\":\"finish\",\"workload\":\"q000000/j\"}\n", i
}' >"$tmp/sorted.jsonl"
awk '{ l[NR] = $0 } END { for (i = NR; i >= 1; i--) print l[i] }' \
	"$tmp/sorted.jsonl" >"$tmp/reversed.jsonl"
awk 'NR <= 5' "$tmp/cqs.json" | sed '$ s/,$//' >"$tmp/one.json"
printf '\n]}\n' >>"$tmp/one.json"
echo "bench_simulate: a $M-line trace"
run "trace in time order (reference)" simulate -f "$tmp/one.json" \
	--trace "$tmp/sorted.jsonl"
run "trace in reverse order" simulate -f "$tmp/one.json" \
	--trace "$tmp/reversed.jsonl"
exit $status
