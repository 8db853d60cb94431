# a chunk whose text was cut outside quotaflow: audit query's decoded
# `events` says so and points at audit verify (the stored view's
# json_each says "malformed JSON"); nothing is printed
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --until 300s --events "$tmp/aqet.jsonl"
setup: audit ingest --db "$tmp/aqet.db" tests/fixtures/audit/cluster.yaml "$tmp/aqet.jsonl"
setup-sh: sqlite3 "$tmp/aqet.db" "UPDATE event_chunks SET rows = substr(rows, 1, 40)"
args: audit query --db "$tmp/aqet.db" "SELECT count(*) FROM events"
exit: 2
stderr-has: error: query failed: a chunk of events does not read as quotaflow wrote it: the database was changed outside quotaflow (quotaflow audit verify --db names the first changed event)
--- stdout
