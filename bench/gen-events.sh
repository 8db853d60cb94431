#!/bin/sh
# bench/gen-events.sh N OUT_DIR - N quotaflow event JSON lines shaped like
# `simulate --events` output (bench/bench_audit.sh), plus the cluster they
# run on: 8 GPU ClusterQueues (team-0..team-7, 8 nvidia.com/gpu of flavor
# h100 each) in one cohort.  Per workload, in its own time order: sometimes
# WaitingForQuota first, QuotaReserved and Admitted, sometimes a preemption
# (EvictedDueToPreempted, Preempted, Requeued, then admitted again), then
# Finished.  Deterministic (awk's srand with a fixed seed).
N=${1:-1000000}
OUT=${2:-build/bench/audit}
mkdir -p "$OUT"
{
	echo "apiVersion: kueue.x-k8s.io/v1beta2"
	echo "kind: ResourceFlavor"
	echo "metadata: {name: h100}"
	i=0
	while [ $i -lt 8 ]; do
		cat <<EOC
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-$i}
spec:
  cohortName: pool
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: h100
      resources:
      - {name: nvidia.com/gpu, nominalQuota: "8", borrowingLimit: "8"}
EOC
		i=$((i + 1))
	done
} >"$OUT/cluster.yaml"
awk -v n="$N" 'BEGIN {
	srand(42); t = 0; e = 0; w = 0
	while (e < n) {
		w++; t += int(rand() * 400); q = int(rand() * 8)
		g = 1 + int(rand() * 4); wl = sprintf("team-%d/job-w%d", q, w)
		cq = sprintf("team-%d", q); a = t
		head = "{\"time_ms\":%d,\"type\":\"%s\",\"reason\":\"%s\",\"workload\":\"" wl "\",\"clusterQueue\":\"" cq "\",\"message\":\"%s\""
		maps = sprintf(",\"flavors\":{\"main\":{\"nvidia.com/gpu\":\"h100\"}},\"usage\":{\"h100\":{\"nvidia.com/gpu\":\"%d\"}},\"borrowed\":{\"h100\":{\"nvidia.com/gpu\":\"0\"}}}", g)
		if (rand() < 0.3) {
			printf head "}\n", t, "Warning", "WaitingForQuota", "couldn'"'"'t assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor h100, " g " more needed"; e++
			a = t + int(rand() * 90000)
		}
		printf head maps "\n", a, "Normal", "QuotaReserved", sprintf("Quota reserved in ClusterQueue %s, wait time since queued was %ds", cq, int((a - t) / 1000))
		printf head maps "\n", a, "Normal", "Admitted", sprintf("Admitted by ClusterQueue %s, wait time since reservation was 0s", cq)
		e += 2
		f = a + 60000 + int(rand() * 600000)
		if (rand() < 0.05) {
			p = a + int(rand() * 30000); msg = "Preempted to accommodate a workload (UID: u-x, JobUID: u-x) due to reclamation within the cohort; preemptor path: /pool/team-0; preemptee path: /pool/" cq
			printf head "}\n", p, "Normal", "EvictedDueToPreempted", msg
			printf head ",\"preemptor\":\"team-0/job-x\",\"preemptionReason\":\"InCohortReclamation\"}\n", p, "Normal", "Preempted", msg
			printf head "}\n", p, "Normal", "Requeued", msg
			a = p + int(rand() * 60000)
			printf head maps "\n", a, "Normal", "QuotaReserved", sprintf("Quota reserved in ClusterQueue %s, wait time since queued was %ds", cq, int((a - p) / 1000))
			printf head maps "\n", a, "Normal", "Admitted", sprintf("Admitted by ClusterQueue %s, wait time since reservation was 0s", cq)
			e += 5; f = a + 60000
		}
		printf head "}\n", f, "Normal", "Finished", "Reached expected number of succeeded pods"; e++
	}
}' | head -n "$N" >"$OUT/events.jsonl"
