# The second ingest of the same file reports nothing added
setup: audit ingest --db "$tmp/audit-again.db" tests/fixtures/audit/cluster.yaml
args: audit ingest --db "$tmp/audit-again.db" tests/fixtures/audit/cluster.yaml
exit: 0
--- stdout
ingested 9 records: 0 added, 0 rejected
