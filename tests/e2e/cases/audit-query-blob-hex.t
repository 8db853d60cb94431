# audit query prints a BLOB (an event's hash chain) as the SQL literal X'..', not raw bytes cut at the first NUL
setup: audit ingest --db "$tmp/audit-blob.db" tests/fixtures/audit/cluster.yaml tests/fixtures/audit/last-event-admission.jsonl
args: audit query --db "$tmp/audit-blob.db" "select x'00ff41' b, length(chain) n from events limit 1"
exit: 0
--- stdout
b	n
X'00FF41'	32
