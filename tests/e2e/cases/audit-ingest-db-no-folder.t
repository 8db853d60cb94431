# --db in a folder that does not exist: exit 2 naming the folder, as -o
# and --out do (it was SQLite's "unable to open database file")
args: audit ingest --db "$tmp/aidn/x.db" tests/fixtures/audit/cluster.yaml
exit: 2
stderr-has: /aidn/x.db: error: --db: the folder
stderr-has: /aidn does not exist [QF002]
stderr-not: SQLite
