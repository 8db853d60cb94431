# controller --db naming a text file: exit 2, the file unchanged
setup-sh: mkdir -p "$tmp/csq" && printf 'notes\n' >"$tmp/csq/c.db"
args: controller --db "$tmp/csq/c.db" --listen 127.0.0.1:0
exit: 2
stderr-has: /csq/c.db: error: --db: is not a SQLite database [QF560]
stderr-has: hint: --db wants a SQLite file that the controller made
after-sh: test "$(cat "$tmp/csq/c.db")" = notes && test ! -e "$tmp/csq/c.db-wal"
