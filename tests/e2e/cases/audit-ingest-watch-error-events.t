# `kubectl get events -A -o json --watch --output-watch-events`: each event
# is a line {"type":"ADDED","object":{...}}, and a failed watch's Status
# comes as {"type":"ERROR","object":{...}} (compact, keys sorted).  A
# warning at its line, nothing stored, exit 0; it was a rejected record
# ("watch error event", QF702, exit 1)
setup-sh: printf '%s\n' '{"type":"ADDED","object":{"apiVersion":"v1","count":1,"firstTimestamp":"2026-06-12T10:00:30Z","involvedObject":{"kind":"Workload","name":"w-low","namespace":"team-a"},"kind":"Event","lastTimestamp":"2026-06-12T10:00:30Z","message":"Quota reserved in ClusterQueue team-a, wait time since queued was 30s","metadata":{"name":"w-low.1","namespace":"team-a","uid":"e2"},"reason":"QuotaReserved","type":"Normal"}}' '{"type":"ERROR","object":{"apiVersion":"v1","code":410,"kind":"Status","message":"too old resource version: 4711 (5120)","metadata":{},"reason":"Expired","status":"Failure"}}' >"$tmp/aiwee.jsonl"
args: audit ingest --db "$tmp/aiwee.db" "$tmp/aiwee.jsonl"
exit: 0
stderr-has: aiwee.jsonl:2:1: warning: a watch error, not an event: the watch failed here (410 Expired: too old resource version: 4711 (5120)); the events after the last one it delivered are not in this input
stdout-has: ingested 2 records: 1 added, 0 rejected
stderr-not: : error:
after-sh: test "$(sqlite3 "$tmp/aiwee.db" "select count(*) from rejected")" = 0
