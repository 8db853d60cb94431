# audit query changes nothing and reaches nothing past the database: PRAGMA query_only = 0
setup: audit ingest --db "$tmp/qg.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/qg.db" "PRAGMA query_only = 0"
exit: 1
stderr-has: <query>:1:1: error: PRAGMA query_only = ... is refused
after-sh: test ! -e x.db && test ! -e copy.db && test ! -e "$tmp/x.db"
