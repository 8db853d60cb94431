# --db naming a FIFO is refused before SQLite opens it (opening it would
# block forever)
setup-sh: mkdir -p "$tmp/dbf" && rm -f "$tmp/dbf/p" && mkfifo "$tmp/dbf/p"
args: audit query --db "$tmp/dbf/p" "select 1"
exit: 2
stderr-has: /dbf/p: error: is a FIFO, not a regular file [QF002]
