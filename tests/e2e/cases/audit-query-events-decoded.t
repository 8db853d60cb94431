# audit query reads `events` through quotaflow's chunk decoder (a TEMP
# view, evview.h), seconds faster at a million events than the stored
# view's json_each: both give the same rows, column for column and type
# for type, for chunks (escapes, NULLs, detail maps) and rows (Kubernetes
# events); main.events still names the stored view
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --until 300s --events "$tmp/aqed-sim.jsonl"
setup: audit ingest --db "$tmp/aqed.db" tests/fixtures/audit/cluster.yaml tests/fixtures/audit/last-event-admission.jsonl "$tmp/aqed-sim.jsonl" tests/fixtures/audit/k8s-events.json
setup-sh: printf '%s\n' '{"time_ms":1781258460000,"type":"Warning","reason":"Pending","workload":"ns-\u00e9/w\"q","clusterQueue":"a\\b","message":"tab\there \"quoted\" \u0001 \u2028","usage":{"h100":{"nvidia.com/gpu":"2"}}}' >"$tmp/aqed.jsonl"
setup: audit ingest --db "$tmp/aqed.db" "$tmp/aqed.jsonl"
args: audit query --db "$tmp/aqed.db" "SELECT (SELECT count(*) FROM events) = (SELECT count(*) FROM main.events) AS same_count, (SELECT count(*) FROM events) > 10 AS some, (SELECT count(*) FROM (SELECT * FROM events EXCEPT SELECT * FROM main.events)) AS only_decoded, (SELECT count(*) FROM (SELECT * FROM main.events EXCEPT SELECT * FROM events)) AS only_stored, (SELECT count(*) FROM events WHERE workload = 'ns-é/w\"q' AND cluster_queue = 'a\\b' AND message LIKE 'tab	here \"quoted\" % ' || char(8232)) AS escaped, (SELECT count(*) FROM temp.sqlite_schema WHERE name = 'events') AS decoder"
exit: 0
--- stdout
same_count	some	only_decoded	only_stored	escaped	decoder
1	1	0	0	1	1
