# audit query changes nothing and reaches nothing past the database: PRAGMA writable_schema = ON
setup: audit ingest --db "$tmp/qg.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/qg.db" "PRAGMA writable_schema = ON"
exit: 1
stderr-has: <query>:1:1: error: PRAGMA writable_schema = ... is refused
after-sh: test ! -e x.db && test ! -e copy.db && test ! -e "$tmp/x.db"
