# Without --until the window ends where the evidence does: at the last
# time an event was observed, an aggregated event's lastTimestamp
# included (D1), 10:50 here, not its first time or the last event's (it
# ended at 10:05).  D_clusters records that end, which ages what still
# waits and ends open intervals (D2, D4)
setup-sh: printf '%s\n' '{"apiVersion":"v1","kind":"Event","metadata":{"name":"w-wait.1","namespace":"team-a","uid":"s1"},"involvedObject":{"kind":"Workload","name":"w-wait","namespace":"team-a"},"reason":"Pending","message":"couldn'"'"'t assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor h100, 2 more needed","type":"Warning","firstTimestamp":"2026-06-12T10:00:00Z","lastTimestamp":"2026-06-12T10:50:00Z","count":6}' '{"apiVersion":"v1","kind":"Event","metadata":{"name":"w-run.1","namespace":"team-a","uid":"s2"},"involvedObject":{"kind":"Workload","name":"w-run","namespace":"team-a"},"reason":"QuotaReserved","message":"Quota reserved in ClusterQueue team-a, wait time since queued was 0s","type":"Normal","firstTimestamp":"2026-06-12T10:05:00Z","lastTimestamp":"2026-06-12T10:05:00Z","count":1}' >"$tmp/arse.json"
setup: audit ingest --db "$tmp/arse.db" "$tmp/arse.json" tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/arse.db" --cluster default
exit: 0
stdout-has: Window: 2026-06-12T10:00:00.000Z to 2026-06-12T10:50:00.000Z
stdout-has: team-a         1          0         -           -           -           1        2700.000
