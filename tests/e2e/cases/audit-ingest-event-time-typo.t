# an Event whose firstTimestamp (or lastTimestamp, a series' time) is
# given and is no time (a typo in an edited record) is rejected at that
# field, as a Workload's is: it was passed over for creationTimestamp, or
# a bad lastTimestamp for the first, without a word (exit 0)
setup-sh: sed '27s/"firstTimestamp": "2026-06-12T10:00:00Z"/"firstTimestamp": "2026-06-12T25:00:00Z"/; 57s/"lastTimestamp": "2026-06-12T10:00:30Z"/"lastTimestamp": "yesterday"/' tests/fixtures/audit/k8s-events.json >"$tmp/aiett.json"
args: audit ingest --db "$tmp/aiett.db" "$tmp/aiett.json"
exit: 1
stderr-has: aiett.json:27:31: error: Event with a time that is none: firstTimestamp "2026-06-12T25:00:00Z" is not a time (RFC 3339, 2026-06-12T09:00:00Z) [QF703]
stderr-has: aiett.json:57:30: error: Event with a time that is none: lastTimestamp "yesterday" is not a time
stdout-has: ingested 11 records: 9 added, 2 rejected
