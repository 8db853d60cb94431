# controller --token-file naming an empty file (only a line break): exit 2
# before the database is created
setup-sh: mkdir -p "$tmp/cse" && printf '\n' >"$tmp/cse/token"
args: controller --db "$tmp/cse/c.db" --listen 127.0.0.1:0 --token-file "$tmp/cse/token"
exit: 2
stderr-has: /cse/token:1:1: error: --token-file: the file is empty; it must hold the bearer token [QF562]
after-sh: test ! -e "$tmp/cse/c.db"
