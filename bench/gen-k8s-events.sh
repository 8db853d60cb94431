#!/bin/sh
# bench/gen-k8s-events.sh N OUT_DIR - the events of bench/gen-events.sh N
# as `kubectl get events -A -o json` prints Kubernetes Events (a v1 List,
# four-space indent, one core/v1 Event per quotaflow event, about its
# Workload, with firstTimestamp/lastTimestamp to the second from
# 2026-06-01T00:00:00Z) in OUT_DIR/k8s-events.json, beside the
# cluster.yaml they run on.  Deterministic, like gen-events.sh.
N=${1:-100000}
OUT=${2:-build/bench/audit}
sh "$(dirname "$0")/gen-events.sh" "$N" "$OUT" || exit 2
awk 'function str(k,   m) {
	if (!match($0, "\"" k "\":\"[^\"]*\""))
		return ""
	m = substr($0, RSTART, RLENGTH)
	return substr(m, length(k) + 5, length(m) - length(k) - 5)
}
function iso(ms,   s) {
	s = int(ms / 1000)
	return sprintf("2026-06-%02dT%02d:%02d:%02dZ", 1 + int(s / 86400),
		int(s % 86400 / 3600), int(s % 3600 / 60), s % 60)
}
BEGIN { printf "{\n    \"apiVersion\": \"v1\",\n    \"items\": [" }
{
	match($0, /"time_ms":[0-9]+/)
	t = iso(substr($0, RSTART + 10, RLENGTH - 10))
	wl = str("workload"); ns = wl; sub(/\/.*/, "", ns); name = wl
	sub(/.*\//, "", name)
	printf "%s\n        {\n", (NR > 1 ? "," : "")
	printf "            \"apiVersion\": \"v1\",\n"
	printf "            \"count\": 1,\n"
	printf "            \"eventTime\": null,\n"
	printf "            \"firstTimestamp\": \"%s\",\n", t
	printf "            \"involvedObject\": {\n"
	printf "                \"apiVersion\": \"kueue.x-k8s.io/v1beta2\",\n"
	printf "                \"kind\": \"Workload\",\n"
	printf "                \"name\": \"%s\",\n", name
	printf "                \"namespace\": \"%s\",\n", ns
	printf "                \"resourceVersion\": \"%d\",\n", 1000 + NR
	printf "                \"uid\": \"u-%s\"\n", name
	printf "            },\n"
	printf "            \"kind\": \"Event\",\n"
	printf "            \"lastTimestamp\": \"%s\",\n", t
	printf "            \"message\": \"%s\",\n", str("message")
	printf "            \"metadata\": {\n"
	printf "                \"creationTimestamp\": \"%s\",\n", t
	printf "                \"name\": \"%s.%x\",\n", name, NR
	printf "                \"namespace\": \"%s\",\n", ns
	printf "                \"resourceVersion\": \"%d\",\n", 5000 + NR
	printf "                \"uid\": \"e-%d\"\n", NR
	printf "            },\n"
	printf "            \"reason\": \"%s\",\n", str("reason")
	printf "            \"reportingComponent\": \"kueue-admission\",\n"
	printf "            \"reportingInstance\": \"\",\n"
	printf "            \"source\": {\n"
	printf "                \"component\": \"kueue-admission\"\n"
	printf "            },\n"
	printf "            \"type\": \"%s\"\n", str("type")
	printf "        }"
}
END {
	printf "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n"
	printf "        \"resourceVersion\": \"\"\n    }\n}\n"
}' "$OUT/events.jsonl" >"$OUT/k8s-events.json"
