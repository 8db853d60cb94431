# a folder with no file to ingest is an error, and no database is made
setup-sh: mkdir -p "$tmp/aif"
args: audit ingest --db "$tmp/aif.db" "$tmp/aif"
exit: 1
stderr-has: /aif: error: is a folder with no file to ingest
after-sh: test ! -e "$tmp/aif.db"
