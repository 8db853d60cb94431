# a second statement behind an empty one is refused, not ignored
setup: audit ingest --db "$tmp/aqh.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/aqh.db" "select 1; ; select 2"
exit: 1
stderr-has: <query>:1:13: error: one statement only; a second one starts here
