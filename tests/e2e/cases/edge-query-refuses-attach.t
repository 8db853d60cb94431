# audit query changes nothing and reaches nothing past the database: ATTACH 'x.db' AS x
setup: audit ingest --db "$tmp/qg.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/qg.db" "ATTACH 'x.db' AS x"
exit: 1
stderr-has: <query>:1:1: error: ATTACH is refused
after-sh: test ! -e x.db && test ! -e copy.db && test ! -e "$tmp/x.db"
