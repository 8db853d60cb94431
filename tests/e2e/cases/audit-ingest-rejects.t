# Malformed records are reported with file:line, the others are stored; exit 1
args: audit ingest --db "$tmp/audit-rej.db" tests/fixtures/audit/bad-events.jsonl
exit: 1
stdout-has: ingested 5 records: 2 added, 3 rejected
stderr-has: tests/fixtures/audit/bad-events.jsonl:2:49: error: malformed JSON
stderr-has: tests/fixtures/audit/bad-events.jsonl:3:1: error: not a quotaflow event
stderr-has: tests/fixtures/audit/bad-events.jsonl:4:61: error: workload "no-namespace" is not namespace/name [QF703]
stderr-has: string or '}' expected near end of file [QF701]
