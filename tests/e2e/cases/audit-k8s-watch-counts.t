# A watch stream on stdin with later snapshots of the same events: counts
# are replaced by the latest (5, 6), never added, and no row is duplicated
setup: audit ingest --db "$tmp/audit-watch.db" tests/fixtures/audit/k8s-events.json tests/fixtures/audit/k8s-events-v1.json
setup: audit ingest --db "$tmp/audit-watch.db" tests/fixtures/audit/k8s-events-watch.stream
args: audit query --db "$tmp/audit-watch.db" "select reason, count, time_ms, last_ms from events where reason = 'Pending' order by id"
--- stdout
reason	count	time_ms	last_ms
Pending	5	1781258400000	1781258428000
Pending	6	1781258700200	1781258940000
