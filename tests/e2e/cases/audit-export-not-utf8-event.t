# an event stored with text that is not UTF-8 (before ingest refused it)
# stops the export with the event's id, instead of a bundle whose
# events.jsonl lacks the field and fails verify as "tampered"
setup: audit ingest --db "$tmp/aenv.db" tests/fixtures/audit/k8s-events.json
setup-sh: sqlite3 "$tmp/aenv.db" "update event_rows set message = cast(x'41ff42' as text) where id = (select min(id) from event_rows)"
args: audit export --db "$tmp/aenv.db" --out "$tmp/aenv"
exit: 1
stderr-has: error: event id 1 holds text that is not UTF-8; JSON cannot carry it as stored, so no bundle is written [QF002]
after-sh: test ! -e "$tmp/aenv"
