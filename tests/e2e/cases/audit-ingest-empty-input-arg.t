# an INPUT that is an empty string (an unset shell variable) is a usage
# error naming it, before any database is made (it was ": error: cannot
# open", a file name of nothing)
args: audit ingest --db "$tmp/aiea.db" tests/fixtures/audit/cluster.yaml ''
exit: 2
stderr-has: audit ingest: INPUT 2 is an empty string; give a file, a folder or -
after-sh: test ! -e "$tmp/aiea.db"
