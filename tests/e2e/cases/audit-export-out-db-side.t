# export --out naming a SQLite file of the database that is not there
# now (x.db-journal/) is refused: a folder of that name stops SQLite
# opening the database (it was made, and the bundle written into it)
setup: audit ingest --db "$tmp/aeod.db" tests/fixtures/audit/cluster.yaml
args: audit export --db "$tmp/aeod.db" --out "$tmp/aeod.db-journal/"
exit: 2
stderr-has: /aeod.db-journal/: error: --out: is a SQLite file of the --db database; writing it would destroy evidence [QF002]
after-sh: test ! -e "$tmp/aeod.db-journal"
