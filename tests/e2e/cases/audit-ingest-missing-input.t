# an input that does not exist is an error and, when no input is left,
# no database is created (it was: an empty database and "ingested 0
# records")
args: audit ingest --db "$tmp/aimi.db" "$tmp/aimi-typo.yaml"
exit: 1
stderr-has: /aimi-typo.yaml: error: cannot open: No such file or directory
stdout-not: ingested
after-sh: test ! -e "$tmp/aimi.db"
