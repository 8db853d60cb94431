# `kubectl get events -A -o json --watch | quotaflow audit ingest -`: when
# the API server ends the watch with an error (410 Expired, "too old
# resource version"), kubectl prints its Status as it prints the events
# (JSON indented by 4, keys sorted: an unstructured object) and its watch
# ends.  Not malformed evidence: a warning at its line that the evidence
# may have a gap there, nothing stored, not even in `rejected`, exit 0.
# It was rejected as a record "not an evidence kind" (QF702, exit 1)
setup-sh: cat tests/fixtures/audit/k8s-events-watch.stream tests/fixtures/audit/watch-error.status >"$tmp/aiwe.stream"
setup-sh: "$QF" audit ingest --db "$tmp/aiwe.db" - <"$tmp/aiwe.stream" >"$tmp/aiwe.out" 2>"$tmp/aiwe.err"
args: audit query --db "$tmp/aiwe.db" "select (select count(*) from events) as events, (select count(*) from rejected) as rejected"
exit: 0
after-sh: grep -qF '<stdin>:176:1: warning: a watch error, not an event: the watch failed here (410 Expired: too old resource version: 4711 (5120)); the events after the last one it delivered are not in this input, so the evidence may have a gap from here on; nothing is stored [QF702]' "$tmp/aiwe.err"
after-sh: grep -qF 'hint: kubectl --watch ends at such an error: list what was watched again (kubectl get events -A -o json) and ingest that, then start a new watch' "$tmp/aiwe.err"
after-sh: grep -qF 'ingested 7 records: 3 added, 0 rejected' "$tmp/aiwe.out"
--- stdout
events	rejected
3	0
