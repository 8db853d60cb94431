# audit ingest --db naming a directory: a clear error naming it
setup-sh: mkdir -p "$tmp/dbd/d.db"
args: audit ingest --db "$tmp/dbd/d.db" tests/fixtures/audit/cluster.yaml
exit: 2
stderr-has: /dbd/d.db: error: is a directory, not a regular file [QF002]
stdout-not: ingested
