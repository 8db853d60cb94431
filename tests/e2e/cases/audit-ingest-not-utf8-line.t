# a quotaflow event line whose text is not UTF-8 is rejected as JSON is
# (QF701), not stored: stored, its message was dropped from the exported
# events.jsonl and a fresh bundle failed audit verify as "tampered"
setup-sh: head -1 tests/fixtures/audit/last-event-admission.jsonl | sed 's/"message":"/"message":"\o377 /' >"$tmp/ainu.jsonl"
args: audit ingest --db "$tmp/ainu.db" "$tmp/ainu.jsonl"
exit: 1
stderr-has: /ainu.jsonl:1:124: error: malformed JSON: unable to decode byte 0xff
stdout-has: ingested 1 records: 0 added, 1 rejected
