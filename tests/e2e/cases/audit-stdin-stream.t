# - reads a stream on standard input (batches committed as they arrive)
args: audit ingest --db "$tmp/audit-stdin.db" -
stdin: tests/fixtures/audit/bad-events.jsonl
exit: 1
stdout-has: ingested 5 records: 2 added, 3 rejected
stderr-has: <stdin>:4:61: error: workload "no-namespace"
