# fts3_tokenizer() reaches past the database: it printed the address of SQLite's tokenizer in
# the process (a different value each run) and, given an address, installs the code there
setup: audit ingest --db "$tmp/aqft.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/aqft.db" "select fts3_tokenizer('simple')"
exit: 1
stderr-has: <query>:1:1: error: fts3_tokenizer() is refused: audit query reads the audit database and changes nothing
stdout-not: X'
