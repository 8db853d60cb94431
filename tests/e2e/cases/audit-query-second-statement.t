# a second statement is named where it starts, whole (it was quoted
# after <query>:1:1, cut at 40 bytes)
setup: audit ingest --db "$tmp/aqss.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/aqss.db" "$(printf 'select 1;\n  select 2')"
exit: 1
--- stdout
--- stderr
<query>:2:3: error: one statement only; a second one starts here
  hint: run each statement on its own
