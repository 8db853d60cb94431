# controller --listen on a port another controller holds: exit 2 with
# "address in use" (not a TLS guess, not exit 1), and the second run's
# database is not created
setup-sh: mkdir -p "$tmp/csp" && { "$QF" controller --db "$tmp/csp/hold.db" --listen 127.0.0.1:0 2>"$tmp/csp/log" & echo $! >"$tmp/csp/pid"; } && i=0 && while [ $i -lt 100 ] && ! grep -q listening "$tmp/csp/log"; do sleep 0.05; i=$((i+1)); done && sed -n 's/.* port \([0-9]*\) .*/\1/p' "$tmp/csp/log" >"$tmp/csp/port" && test -s "$tmp/csp/port"
args: controller --db "$tmp/csp/c.db" --listen "127.0.0.1:$(cat "$tmp/csp/port")"
exit: 2
stderr-has: cannot bind: Address already in use [QF561]
stderr-has: hint: another program listens there
after-sh: kill "$(cat "$tmp/csp/pid")"; test ! -e "$tmp/csp/c.db"
