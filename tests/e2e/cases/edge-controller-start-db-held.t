# a second controller on the same --db refuses to start (exit 2) and
# leaves the first one's database alone
setup-sh: mkdir -p "$tmp/csh" && { "$QF" controller --db "$tmp/csh/a.db" --listen 127.0.0.1:0 2>"$tmp/csh/log" & echo $! >"$tmp/csh/pid"; } && i=0 && while [ $i -lt 100 ] && ! grep -q listening "$tmp/csh/log"; do sleep 0.05; i=$((i+1)); done && grep -q listening "$tmp/csh/log"
args: controller --db "$tmp/csh/a.db" --listen 127.0.0.1:0
exit: 2
stderr-has: /csh/a.db: error: the database is held by another controller (one controller per --db) [QF560]
after-sh: kill -0 "$(cat "$tmp/csh/pid")" && kill "$(cat "$tmp/csh/pid")"
