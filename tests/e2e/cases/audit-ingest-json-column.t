# malformed JSON is named at the line and column jansson stopped at, in a
# JSON line (the quotaflow fast path's fallback) and inside a
# pretty-printed List (it was always column 1)
setup-sh: printf '{"time_ms":1795770000000,"type":"Normal","reason":"QuotaReserved","workload":"team-a/x",,"clusterQueue":"team-a"}\n' >"$tmp/aijc.jsonl"
setup-sh: printf '[\n {"apiVersion": "v1",\n  "kind": "Event",\n  "metadata": {"name": "a", }\n }\n]\n' >"$tmp/aijc.json"
args: audit ingest --db "$tmp/aijc.db" "$tmp/aijc.jsonl" "$tmp/aijc.json"
exit: 1
stderr-has: /aijc.jsonl:1:89: error: malformed JSON: string or '}' expected near ',' [QF701]
stderr-has: /aijc.json:4:29: error: malformed JSON: string or '}' expected near '}' [QF701]
