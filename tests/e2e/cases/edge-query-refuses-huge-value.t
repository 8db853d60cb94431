# audit query changes nothing and reaches nothing past the database: SELECT randomblob(1000000000)
setup: audit ingest --db "$tmp/qg.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/qg.db" "SELECT randomblob(1000000000)"
exit: 1
stderr-has: <query>:1:1: error: a value is longer than the limit of 67108864 bytes
after-sh: test ! -e x.db && test ! -e copy.db && test ! -e "$tmp/x.db"
