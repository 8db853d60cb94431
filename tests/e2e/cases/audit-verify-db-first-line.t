# verify --db's first line says what it checked: the database's events and their chain, not "0 files" (a database has none)
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/vdb.jsonl"
setup: audit ingest --db "$tmp/vdb.db" "$tmp/vdb.jsonl"
args: audit verify --db "$tmp/vdb.db"
exit: 0
stdout-has: verified: database: 22 events, chain head 
stdout-not: files
