# controller --db naming a folder: exit 2, with what --db wants
setup-sh: mkdir -p "$tmp/csf/db"
args: controller --db "$tmp/csf/db" --listen 127.0.0.1:0
exit: 2
stderr-has: /csf/db: error: is a directory, not a regular file [QF002]
stderr-has: hint: --db wants a SQLite file that the controller made, or a new path
