# audit ingest --db naming another program's SQLite file (here the
# controller's state) writes nothing into it: no audit tables, no WAL
setup-sh: mkdir -p "$tmp/ifs" && rm -f "$tmp/ifs/x.db"* && sqlite3 "$tmp/ifs/x.db" "create table notes(x); insert into notes values('mine')" && cp "$tmp/ifs/x.db" "$tmp/ifs/orig"
args: audit ingest --db "$tmp/ifs/x.db" tests/fixtures/audit/cluster.yaml
exit: 2
stderr-has: /ifs/x.db: error: is the SQLite database of something else (tables notes); audit ingest writes only into a new or empty file or an audit database [QF002]
after-sh: cmp "$tmp/ifs/x.db" "$tmp/ifs/orig"
