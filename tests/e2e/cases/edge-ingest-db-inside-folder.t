# audit ingest --db kept inside the folder it ingests: the database and
# its SQLite files are not read as evidence (every later run used to
# reject them and exit 1)
setup-sh: mkdir -p "$tmp/idf" && cp tests/fixtures/audit/k8s-events.json "$tmp/idf/"
setup: audit ingest --db "$tmp/idf/audit.db" "$tmp/idf"
args: audit ingest --db "$tmp/idf/audit.db" "$tmp/idf"
exit: 0
stdout-has: 0 rejected
stderr-not: audit.db
