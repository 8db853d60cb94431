# A database of schema version 9 (before the triggers of `events`, 10) is
# read as it is by the read-only commands, which need no migration for it
# (they refuse older versions, audit-report-old-schema); the next ingest
# migrates it to 12, the triggers (10) and the evidence digests (11) with it
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/arv9.jsonl"
setup: audit ingest --db "$tmp/arv9.db" tests/fixtures/audit/cluster.yaml "$tmp/arv9.jsonl"
setup-sh: sqlite3 "$tmp/arv9.db" "DROP TRIGGER events_update; DROP TRIGGER events_delete; DROP TRIGGER events_insert; DROP TABLE evidence_digests; PRAGMA user_version = 9"
setup: audit verify --db "$tmp/arv9.db"
setup: audit report --db "$tmp/arv9.db" -o "$tmp/arv9.txt"
setup-sh: test "$(sqlite3 "$tmp/arv9.db" "pragma user_version")" = 9
setup: audit ingest --db "$tmp/arv9.db" -
args: audit query --db "$tmp/arv9.db" "select (select user_version from pragma_user_version) v, (select count(*) from sqlite_schema where type = 'trigger') triggers, count(*) waits from audit_waits"
exit: 0
--- stdout
v	triggers	waits
12	3	5
