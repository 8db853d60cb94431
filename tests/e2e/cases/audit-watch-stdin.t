# The concatenated JSON of kubectl get events -o json --watch, read from stdin
args: audit ingest --db "$tmp/audit-wstdin.db" -
stdin: tests/fixtures/audit/k8s-events-watch.stream
--- stdout
ingested 6 records: 3 added, 0 rejected
