# the database named as an input is refused as such (it was read as a
# binary "evidence" file and rejected as garbage)
setup: audit ingest --db "$tmp/aii.db" tests/fixtures/audit/cluster.yaml
args: audit ingest --db "$tmp/aii.db" "$tmp/aii.db"
exit: 1
stderr-has: /aii.db: error: is the --db database (or its SQLite file): evidence goes in, not the database
stderr-not: QF702
