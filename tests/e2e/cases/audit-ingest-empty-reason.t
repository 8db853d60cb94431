# audit ingest: a quotaflow event with an empty reason or type is rejected at that field (QF703), in a file and on a stream; it was stored, matched no derivation rule and meant nothing, without a word
setup-sh: printf '%s\n' '{"time_ms":1,"type":"Normal","reason":"","workload":"a/b","clusterQueue":"q","message":"m"}' '{"time_ms":3,"type":"","reason":"Admitted","workload":"a/d","clusterQueue":"q","message":"m"}' '{"time_ms":3,"reason":"Admitted","workload":"a/d","clusterQueue":"q","message":"m"}' >"$tmp/empty-reason.jsonl"
args: audit ingest --db "$tmp/empty-reason.db" "$tmp/empty-reason.jsonl"
exit: 1
stdout-has: ingested 3 records: 1 added, 2 rejected
stderr-has: empty-reason.jsonl:1:39: error: reason is empty: a quotaflow event says what happened
stderr-has: empty-reason.jsonl:2:21: error: type is empty
after-sh: test "$("$QF" audit ingest --db "$tmp/empty-reason-stream.db" - <"$tmp/empty-reason.jsonl" 2>&1 | grep -c 'is empty')" = 2
