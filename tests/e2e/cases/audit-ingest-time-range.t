# a quotaflow event whose time_ms is past what a time can be is rejected:
# 20 digits was clamped to INT64_MAX unsaid, and -1 or INT64_MAX were
# stored (a report window of 1969 to the year 292278994)
setup-sh: printf '%s\n' '{"time_ms":-1,"type":"Normal","reason":"Admitted","workload":"a/b","clusterQueue":"q","message":"m"}' '{"time_ms":99999999999999999999,"type":"Normal","reason":"Admitted","workload":"a/c","clusterQueue":"q","message":"m"}' '{"time_ms":9223372036854775807,"type":"Normal","reason":"Admitted","workload":"a/d","clusterQueue":"q","message":"m"}' '{"time_ms":1000,"type":"Normal","reason":"Admitted","workload":"a/e","clusterQueue":"q","message":"m"}' >"$tmp/aitr.jsonl"
args: audit ingest --db "$tmp/aitr.db" "$tmp/aitr.jsonl"
exit: 1
stderr-has: /aitr.jsonl:1:12: error: time_ms -1 is not a time from 1970 to 9999 (milliseconds since 1970-01-01T00:00:00Z) [QF703]
stderr-has: /aitr.jsonl:2:31: error: malformed JSON: too big integer
stderr-has: /aitr.jsonl:3:12: error: time_ms 9223372036854775807 is not a time from 1970 to 9999
stdout-has: ingested 4 records: 1 added, 3 rejected
