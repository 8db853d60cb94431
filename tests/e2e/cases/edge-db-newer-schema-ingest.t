# audit ingest into a database of a newer schema: refused, the file
# untouched, and no "ingested 0 records" line that reads like success
setup-sh: mkdir -p "$tmp/dbv" && cp tests/fixtures/audit/newer.db "$tmp/dbv/n.db"
args: audit ingest --db "$tmp/dbv/n.db" tests/fixtures/audit/cluster.yaml
exit: 1
stderr-has: database schema version 99 is newer than this quotaflow understands (
stdout-not: ingested
after-sh: cmp "$tmp/dbv/n.db" tests/fixtures/audit/newer.db
