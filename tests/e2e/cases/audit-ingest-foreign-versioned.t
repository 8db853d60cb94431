# another program's SQLite file that sets a schema version of its own
# (PRAGMA user_version = 3) is refused as one, not migrated as an audit
# database of version 3 ("no such table: quotas"), and left unchanged
setup-sh: rm -f "$tmp/aifv.db"* && sqlite3 "$tmp/aifv.db" "pragma user_version = 3; create table notes(x); insert into notes values('mine')" && cp "$tmp/aifv.db" "$tmp/aifv.orig"
args: audit ingest --db "$tmp/aifv.db" tests/fixtures/audit/cluster.yaml
exit: 2
stderr-has: /aifv.db: error: is the SQLite database of something else (schema version 3, tables notes)
stderr-not: no such table
after-sh: cmp "$tmp/aifv.db" "$tmp/aifv.orig"
