# a read-only command on another program's SQLite file with a schema
# version: not an audit database (it said "older than this quotaflow's"
# and told to migrate it with audit ingest)
setup-sh: rm -f "$tmp/arfv.db"* && sqlite3 "$tmp/arfv.db" "pragma user_version = 3; create table notes(x)"
args: audit report --db "$tmp/arfv.db"
exit: 2
stderr-has: /arfv.db: error: not a quotaflow audit database: is the SQLite database of something else (schema version 3, tables notes) [QF002]
stderr-not: migrate
