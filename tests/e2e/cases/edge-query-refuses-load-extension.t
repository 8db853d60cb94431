# audit query changes nothing and reaches nothing past the database: SELECT load_extension('libm.so.6')
setup: audit ingest --db "$tmp/qg.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/qg.db" "SELECT load_extension('libm.so.6')"
exit: 1
stderr-has: <query>:1:1: error: load_extension() is refused
after-sh: test ! -e x.db && test ! -e copy.db && test ! -e "$tmp/x.db"
