# --format forces a parser: records of another kind are rejected (QF704)
args: audit ingest --db "$tmp/audit-fmt.db" --format workloads tests/fixtures/audit/bad-events.jsonl
exit: 1
stderr-has: bad-events.jsonl:1:1: error: a quotaflow event, not a workloads record [QF704]
