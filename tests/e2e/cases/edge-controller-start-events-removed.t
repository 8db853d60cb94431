# a start that fails after the database was opened (--events naming a
# README) removes the database it created: nothing is left behind
setup-sh: mkdir -p "$tmp/csv" && printf '# notes\n' >"$tmp/csv/README.md"
args: controller --db "$tmp/csv/c.db" --listen 127.0.0.1:0 --events "$tmp/csv/README.md"
exit: 2
stderr-has: is not a JSON lines log
after-sh: test "$(ls -A "$tmp/csv")" = README.md
