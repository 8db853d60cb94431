#!/bin/sh
# bench/bench_validate.sh - how fast `quotaflow validate` checks a large
# GitOps repository: generates N Kueue objects (default 50000: 40%
# ClusterQueues with three resources and a cohort, 20% LocalQueues, 20%
# ResourceFlavors with taints, 10% Cohorts, 10% WorkloadPriorityClasses)
# in files of 1000 objects, then times one validation run with the built-in
# schemas and one with --crds, under bench/benchtool (CPU time = user +
# system, and peak RSS, from wait4: on a shared machine the CPU time is the
# steady figure).  Target: well under a second for 50000.
#
# usage: sh bench/bench_validate.sh build/quotaflow [N [OUTDIR]]
#   with OUTDIR: only write the objects there (bench_lint.sh reuses them)
QF=${1:-build/quotaflow}
N=${2:-50000}
KEEP=${3:-}
case "$QF" in /*) ;; *) QF=$(pwd)/$QF ;; esac
cd "$(dirname "$0")/.." || exit 2
tool=$(dirname "$QF")/bench/benchtool
if [ ! -x "$tool" ]; then
	mkdir -p "$(dirname "$tool")"
	# shellcheck disable=SC2046
	cc -O2 -std=c11 -Wall -Wextra -Werror -I. -o "$tool" bench/benchtool.c \
		$(pkg-config --cflags --libs jansson) || exit 2
fi
if [ -n "$KEEP" ]; then
	mkdir -p "$KEEP" || exit 2
	tmp=$KEEP
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
fi

awk -v n="$N" -v dir="$tmp" 'BEGIN {
	for (i = 0; i < n; i++) {
		f = sprintf("%s/objects-%03d.yaml", dir, int(i / 1000));
		k = i % 10;
		printf "---\napiVersion: kueue.x-k8s.io/v1beta2\n" > f;
		if (k < 4) {
			printf "kind: ClusterQueue\nmetadata:\n  name: cq-%d\n" \
			    "spec:\n  cohortName: co-%d\n  namespaceSelector: {}\n" \
			    "  queueingStrategy: BestEffortFIFO\n  preemption:\n" \
			    "    withinClusterQueue: LowerPriority\n" \
			    "    reclaimWithinCohort: Any\n  resourceGroups:\n" \
			    "  - coveredResources: [\"cpu\", \"memory\", \"nvidia.com/gpu\"]\n" \
			    "    flavors:\n    - name: rf-%d\n      resources:\n" \
			    "      - name: cpu\n        nominalQuota: %d\n" \
			    "      - name: memory\n        nominalQuota: %dGi\n" \
			    "      - name: nvidia.com/gpu\n        nominalQuota: 8\n" \
			    "        borrowingLimit: 4\n        lendingLimit: 2\n",
			    i, i % 97, i % 13, 16 + i % 64, 64 + i % 512 > f;
		} else if (k < 6) {
			printf "kind: LocalQueue\nmetadata:\n  name: lq-%d\n" \
			    "  namespace: team-%d\nspec:\n  clusterQueue: cq-%d\n",
			    i, i % 211, i - 4 > f;
		} else if (k < 8) {
			printf "kind: ResourceFlavor\nmetadata:\n  name: rf-%d\n" \
			    "spec:\n  nodeLabels:\n    cloud.example.com/gpu: a100-%d\n" \
			    "  nodeTaints:\n  - key: nvidia.com/gpu\n    value: present\n" \
			    "    effect: NoSchedule\n", i, i % 7 > f;
		} else if (k < 9) {
			printf "kind: Cohort\nmetadata:\n  name: co-%d\nspec:\n" \
			    "  fairSharing:\n    weight: \"2\"\n", i > f;
		} else {
			printf "kind: WorkloadPriorityClass\nmetadata:\n" \
			    "  name: wpc-%d\nvalue: %d\ndescription: bench\n",
			    i, i % 1000 > f;
		}
	}
}'
[ -z "$KEEP" ] || exit 0
bytes=$(cat "$tmp"/*.yaml | wc -c)
echo "bench_validate: $N objects, $((bytes / 1024)) KiB of YAML"

run() {
	label=$1
	shift
	"$tool" rusage "$QF" validate "$@" "$tmp" >"$tmp.out" 2>"$tmp.err"
	rc=$?
	tail -1 "$tmp.err" | awk -v l="$label" -v s="$(cat "$tmp.out")" '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); R[kv[1]] = kv[2] }
		printf "%-10s cpu %5d ms  wall %5d ms  peak %4.0f MB   %s\n", l,
			R["cpu_ms"], R["wall_ms"], R["maxrss_kb"] / 1024, s
	}'
	[ "$rc" = 0 ] || { head -5 "$tmp.err"; return 1; }
}

status=0
run built-in || status=1
if [ -d ../shared/kueue-crds ]; then
	run --crds --crds ../shared/kueue-crds || status=1
fi
rm -f "$tmp.out" "$tmp.err"
exit $status
