# a bad query spread over lines is named at the line and column SQLite
# stopped at (it was always <query>:1:1)
setup: audit ingest --db "$tmp/aqep.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/aqep.db" "$(printf 'select cluster,\n  nope from events')"
exit: 1
--- stdout
--- stderr
<query>:2:3: error: bad query: no such column: nope
