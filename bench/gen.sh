#!/bin/sh
# bench/gen.sh - turns one of Kueue's scheduler performance configurations
# (test/performance/scheduler/configs/*/generator.yaml upstream) into the
# inputs of `quotaflow simulate`:
#
#   OUTDIR/objects.json  a Kubernetes List: ResourceFlavor "rf", and per
#                        queue a ClusterQueue, a Namespace and a LocalQueue
#   OUTDIR/trace.jsonl   one {"at_ms", "op": "submit", "object", "runtime_ms"}
#                        line per Workload, sorted by time
#   OUTDIR/bound.txt     workloads=N work_cpu_ms=W lower_bound_ms=L
#
# usage: sh bench/gen.sh generator.yaml OUTDIR
#        sh bench/gen.sh --scaling N OUTDIR     (the cost-per-decision bench)
#
# Names and shapes follow Kueue's runner (test/performance/scheduler/runner/
# generator/generator.go at ff69552e79ad):
#   cohort      CLASS-<cohortIdx>                      (no Cohort object)
#   ClusterQueue CLASS-<queueSetIdx>-<queueIdx>-<cohort>, one resource group
#               with flavour "rf" and cpu nominalQuota/borrowingLimit, the
#               preemption policies of the queue set, labels
#               kueue.x-k8s.io/performance-scheduler-class=CLASS and
#               kueue.x-k8s.io/performance-scheduler-cleanup=true
#   Namespace and LocalQueue named like the ClusterQueue
#   Workload    CLASS-<wlSetIdx>-<si>-<i> in that namespace, one pod set
#               "main" of 1 pod requesting cpu, spec.priority, labels
#               ...-class=CLASS and ...-running-ms=RUNTIME
# The runner creates every workload set concurrently and waits
# creationIntervalMs BEFORE each workload, so workload k (0-based) of a set
# is created at (k+1) * creationIntervalMs; the runner then finishes it
# runtimeMs after admission.  Equal creation times are ordered by cohort,
# queue set, queue, workload set, then index (the runner's goroutines race;
# we pick one order and keep it).
#
# The config reader understands exactly the generator.yaml schema (cohorts,
# queuesSets, workloadsSets, workloads with their scalar fields) in block
# style, which is what Kueue ships; anything else is an error.
set -eu

usage() {
	echo "usage: gen.sh generator.yaml OUTDIR | gen.sh --scaling N OUTDIR" >&2
	exit 2
}

if [ "${1:-}" = "--scaling" ]; then
	[ $# -eq 3 ] || usage
	n=$2
	out=$3
	# The scaling scenario: one cohort of 10 queues (quota 10 cpu each,
	# may borrow the whole cohort), N one-cpu workloads of 100 ms all
	# pending at time 0, four priority levels, no preemption.  Every
	# admission decision is made with the rest of the N workloads still
	# pending, so CPU time per admission shows how the cost of a decision
	# grows with the backlog.
	cfg=$(mktemp)
	trap 'rm -f "$cfg"' EXIT
	per=$(((n + 39) / 40))
	cat >"$cfg" <<EOF
cohorts:
  - className: scale
    count: 1
    queuesSets:
    - className: cq
      count: 10
      nominalQuota: 10
      borrowingLimit: 90
      reclaimWithinCohort: Never
      withinClusterQueue: Never
      workloadsSets:
      - count: $per
        creationIntervalMs: 0
        workloads:
        - className: p0
          runtimeMs: 100
          priority: 0
          request: 1
        - className: p1
          runtimeMs: 100
          priority: 1
          request: 1
        - className: p2
          runtimeMs: 100
          priority: 2
          request: 1
        - className: p3
          runtimeMs: 100
          priority: 3
          request: 1
EOF
	set -- "$cfg" "$out"
fi
[ $# -eq 2 ] || usage
cfg=$1
out=$2
mkdir -p "$out"

awk -v out="$out" -v sq="'" '
BEGIN {
	level["cohorts"] = "c"; level["queuesSets"] = "q"
	level["workloadsSets"] = "w"; level["workloads"] = "t"
}
function fail(msg) {
	printf "gen.sh: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
	err = 1
	exit 1
}
function trim(s) {
	sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s)
	if (s ~ /^".*"$/ || (substr(s, 1, 1) == sq && substr(s, length(s)) == sq))
		s = substr(s, 2, length(s) - 2)
	return s
}
# Quantities of the config are plain numbers or milli ("500m"); cpu math is
# done in millicores, as Kueue does.
function milli(q) {
	if (q ~ /^[0-9]+m$/) return substr(q, 1, length(q) - 1) + 0
	if (q ~ /^[0-9]+$/) return q * 1000
	if (q ~ /^[0-9]*\.[0-9]+$/) return int(q * 1000 + 0.999)
	fail("unsupported quantity " q)
}
# A list item or key line.  A stack of open lists (name, indent of its key,
# content indent of its items) says which item a key belongs to.
{
	sub(/#.*/, "")
	if ($0 ~ /^[ \t]*$/) next
	line = $0
	match(line, /^ */); d = RLENGTH
	item = 0
	if (substr(line, d + 1, 2) == "- ") {
		item = 1
		line = substr(line, d + 3)
		while (sp > 0 && skey[sp] > d) sp--
		if (sp == 0) fail("list item outside a list")
		scont[sp] = d + 2
		list = sname[sp]
		if (list == "cohorts") { nc++; nq[nc] = 0 }
		else if (list == "queuesSets") { nq[nc]++; nw[nc, nq[nc]] = 0 }
		else if (list == "workloadsSets") {
			nw[nc, nq[nc]]++; nt[nc, nq[nc], nw[nc, nq[nc]]] = 0
		} else if (list == "workloads") nt[nc, nq[nc], nw[nc, nq[nc]]]++
		d += 2
	} else {
		while (sp > 0 && scont[sp] > d) sp--
	}
	key = line; sub(/:.*/, "", key); key = trim(key)
	val = line; if (!sub(/^[^:]*:/, "", val)) fail("expected key: value")
	val = trim(val)
	cur = sp > 0 ? level[sname[sp]] : ""
	if (key in level) {
		if (val != "") fail(key " must be a block list")
		sp++; sname[sp] = key; skey[sp] = d; scont[sp] = 1e9
		next
	}
	if (key == "topology" || key == "resourceFlavor")
		fail(key ": TAS configurations are not supported")
	if (cur == "c") {
		if (key != "className" && key != "count") fail("unknown cohort key " key)
		C[nc, key] = val
	} else if (cur == "q") {
		if (key !~ /^(className|count|nominalQuota|borrowingLimit|reclaimWithinCohort|withinClusterQueue)$/)
			fail("unknown queuesSet key " key)
		Q[nc, nq[nc], key] = val
	} else if (cur == "w") {
		if (key != "count" && key != "creationIntervalMs") fail("unknown workloadsSet key " key)
		W[nc, nq[nc], nw[nc, nq[nc]], key] = val
	} else if (cur == "t") {
		if (key !~ /^(className|runtimeMs|priority|request|podCount)$/)
			fail("unknown workload key " key)
		T[nc, nq[nc], nw[nc, nq[nc]], nt[nc, nq[nc], nw[nc, nq[nc]]], key] = val
	} else fail("unexpected key " key)
}
END {
	if (err) exit 1
	if (nc == 0) { print "gen.sh: config has no cohorts" > "/dev/stderr"; exit 1 }
	obj = out "/objects.json"
	unsorted = out "/trace.unsorted"
	lab = "kueue.x-k8s.io/performance-scheduler-"
	printf "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[\n" > obj
	printf "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"rf\",\"labels\":{\"%scleanup\":\"true\"}},\"spec\":{}}", lab > obj
	total = 0; work = 0; lb = 0; seq = 0
	for (c = 1; c <= nc; c++) for (ci = 0; ci < C[c, "count"] + 0; ci++) {
		cohort = C[c, "className"] "-" ci
		cap = 0; split("", wat); tmax = 0
		for (q = 1; q <= nq[c]; q++) for (qi = 0; qi < Q[c, q, "count"] + 0; qi++) {
			cq = Q[c, q, "className"] "-" (q - 1) "-" qi "-" cohort
			cap += milli(Q[c, q, "nominalQuota"])
			printf ",\n{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"%s\",\"labels\":{\"%sclass\":\"%s\",\"%scleanup\":\"true\"}},\"spec\":{\"cohortName\":\"%s\",\"namespaceSelector\":{},\"queueingStrategy\":\"BestEffortFIFO\",\"flavorFungibility\":{\"whenCanBorrow\":\"MayStopSearch\",\"whenCanPreempt\":\"TryNextFlavor\"},\"resourceGroups\":[{\"coveredResources\":[\"cpu\"],\"flavors\":[{\"name\":\"rf\",\"resources\":[{\"name\":\"cpu\",\"nominalQuota\":\"%s\"%s}]}]}],\"preemption\":{\"reclaimWithinCohort\":\"%s\",\"withinClusterQueue\":\"%s\"}}}", \
				cq, lab, Q[c, q, "className"], lab, cohort, Q[c, q, "nominalQuota"], \
				(Q[c, q, "borrowingLimit"] != "" ? ",\"borrowingLimit\":\"" Q[c, q, "borrowingLimit"] "\"" : ""), \
				(Q[c, q, "reclaimWithinCohort"] != "" ? Q[c, q, "reclaimWithinCohort"] : "Never"), \
				(Q[c, q, "withinClusterQueue"] != "" ? Q[c, q, "withinClusterQueue"] : "Never") > obj
			printf ",\n{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"%s\",\"labels\":{\"%scleanup\":\"true\"}}}", cq, lab > obj
			printf ",\n{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"LocalQueue\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"%s\"},\"spec\":{\"clusterQueue\":\"%s\"}}", cq, cq, cq > obj
			for (w = 1; w <= nw[c, q]; w++) {
				iv = W[c, q, w, "creationIntervalMs"] + 0
				nwt = nt[c, q, w]
				for (si = 0; si < W[c, q, w, "count"] + 0; si++) for (t = 1; t <= nwt; t++) {
					k = si * nwt + (t - 1)
					at = (k + 1) * iv
					cls = T[c, q, w, t, "className"]
					rt = T[c, q, w, t, "runtimeMs"] + 0
					pods = T[c, q, w, t, "podCount"] != "" ? T[c, q, w, t, "podCount"] + 0 : 1
					req = T[c, q, w, t, "request"]
					name = cls "-" (w - 1) "-" si "-" (t - 1)
					wk = milli(req) * pods * rt
					work += wk; wat[at] += wk; total++
					if (at > tmax) tmax = at
					if (at + rt > lb) lb = at + rt
					printf "%d %d {\"at_ms\":%d,\"op\":\"submit\",\"runtime_ms\":%d,\"object\":{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"%s\",\"labels\":{\"%srunning-ms\":\"%d\",\"%sclass\":\"%s\"}},\"spec\":{\"queueName\":\"%s\",\"priority\":%d,\"podSets\":[{\"name\":\"main\",\"count\":%d,\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"%s\"}}}]}}}]}}}\n", \
						at, seq++, at, rt, name, cq, lab, rt, lab, cls, cq, T[c, q, w, t, "priority"] + 0, pods, req > unsorted
				}
			}
		}
		# Perfect packing in this cohort: all work that arrives at or
		# after t needs at least (that work / cohort capacity) after t.
		rest = 0
		for (t = tmax; t >= 0; t--) {
			if (t in wat) {
				rest += wat[t]
				b = t + rest / cap
				if (b > lb) lb = b
			}
		}
	}
	printf "\n]}\n" > obj
	close(obj); close(unsorted)
	printf "workloads=%d work_cpu_ms=%d lower_bound_ms=%d\n", total, work / 1000, int(lb + 0.999) > (out "/bound.txt")
}
' "$cfg"

sort -n -k1,1 -k2,2 "$out/trace.unsorted" | cut -d' ' -f3- >"$out/trace.jsonl"
rm -f "$out/trace.unsorted"
