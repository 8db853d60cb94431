# audit query changes nothing and reaches nothing past the database: VACUUM INTO 'copy.db'
setup: audit ingest --db "$tmp/qg.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/qg.db" "VACUUM INTO 'copy.db'"
exit: 1
stderr-has: <query>:1:1: error: a write statement is refused
after-sh: test ! -e x.db && test ! -e copy.db && test ! -e "$tmp/x.db"
