# finish with a token the controller refuses: exit 2, and the hint names
# the token file (without one, it says a token is wanted)
setup-sh: mkdir -p "$tmp/fwt" && echo s3cret >"$tmp/fwt/token" && echo wrong >"$tmp/fwt/wrong" && { "$QF" controller --db "$tmp/fwt/c.db" --listen 127.0.0.1:0 --token-file "$tmp/fwt/token" 2>"$tmp/fwt/log" & echo $! >"$tmp/fwt/pid"; } && i=0 && while [ $i -lt 100 ] && ! grep -q listening "$tmp/fwt/log"; do sleep 0.05; i=$((i+1)); done && sed -n 's/.* port \([0-9]*\) .*/\1/p' "$tmp/fwt/log" >"$tmp/fwt/port" && test -s "$tmp/fwt/port"
args: finish default/x --server "http://127.0.0.1:$(cat "$tmp/fwt/port")" --token-file "$tmp/fwt/wrong"
exit: 2
stderr-has: error: default/x: Unauthorized (HTTP 401) [QF563]
stderr-has: /fwt/wrong was refused
after-sh: kill "$(cat "$tmp/fwt/pid")"
