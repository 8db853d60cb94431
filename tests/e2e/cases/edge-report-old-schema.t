# a read-only command on an audit database of an older schema says how
# to migrate it (it said "not a quotaflow audit database")
setup-sh: rm -f "$tmp/ros.db" && sqlite3 "$tmp/ros.db" "pragma user_version = 1; create table events(x)"
args: audit report --db "$tmp/ros.db"
exit: 1
stderr-has: audit database of schema version 1, older than this quotaflow's
stderr-has: hint: migrate it once: quotaflow audit ingest --db FILE - </dev/null
