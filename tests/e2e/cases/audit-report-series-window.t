# An aggregated Kubernetes event (a series: count 6, first seen 10:00,
# lastTimestamp 10:50) was observed again inside a window that starts
# after its first time: the cluster's evidence runs to 10:50 (D1), so the
# window 10:30 to 11:00 is inside it.  The evidence ended at the last
# event's first time (10:05), and the report warned that the window "is
# outside the evidence, which runs from ... to 10:05"
setup-sh: printf '%s\n' '{"apiVersion":"v1","kind":"Event","metadata":{"name":"w-wait.1","namespace":"team-a","uid":"s1"},"involvedObject":{"kind":"Workload","name":"w-wait","namespace":"team-a"},"reason":"Pending","message":"couldn'"'"'t assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor h100, 2 more needed","type":"Warning","firstTimestamp":"2026-06-12T10:00:00Z","lastTimestamp":"2026-06-12T10:50:00Z","count":6}' '{"apiVersion":"v1","kind":"Event","metadata":{"name":"w-run.1","namespace":"team-a","uid":"s2"},"involvedObject":{"kind":"Workload","name":"w-run","namespace":"team-a"},"reason":"QuotaReserved","message":"Quota reserved in ClusterQueue team-a, wait time since queued was 0s","type":"Normal","firstTimestamp":"2026-06-12T10:05:00Z","lastTimestamp":"2026-06-12T10:05:00Z","count":1}' >"$tmp/arsw.json"
setup: audit ingest --db "$tmp/arsw.db" "$tmp/arsw.json" tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/arsw.db" --since 2026-06-12T10:30:00Z --until 2026-06-12T11:00:00Z --format json
exit: 0
stdout-has: "from": "2026-06-12T10:30:00.000Z"
stderr-not: outside the evidence
