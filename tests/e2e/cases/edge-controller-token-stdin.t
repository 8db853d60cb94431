# --token-file - (or a FIFO, <(pass show token)) can be read only once:
# the start-up checks leave it to the start, so the controller starts and
# takes that token
setup-sh: mkdir -p "$tmp/cts" && echo s3cret >"$tmp/cts/token" && { "$QF" controller --db "$tmp/cts/c.db" --listen 127.0.0.1:0 --token-file - <"$tmp/cts/token" 2>"$tmp/cts/log" & echo $! >"$tmp/cts/pid"; } && i=0 && while [ $i -lt 100 ] && ! grep -q listening "$tmp/cts/log"; do sleep 0.05; i=$((i+1)); done && sed -n 's/.* port \([0-9]*\) .*/\1/p' "$tmp/cts/log" >"$tmp/cts/port" && test -s "$tmp/cts/port"
args: finish default/nope --server "http://127.0.0.1:$(cat "$tmp/cts/port")" --token-file "$tmp/cts/token"
exit: 1
stderr-has: default/nope: no Workload or Job of that name
after-sh: kill "$(cat "$tmp/cts/pid")"
