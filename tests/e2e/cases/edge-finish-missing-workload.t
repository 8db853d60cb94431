# finish NS/NAME when the controller holds neither a Workload nor a Job of
# that name: exit 1, said in those words (not only "jobs.batch not found")
setup-sh: mkdir -p "$tmp/fmw" && { "$QF" controller --db "$tmp/fmw/c.db" --listen 127.0.0.1:0 2>"$tmp/fmw/log" & echo $! >"$tmp/fmw/pid"; } && i=0 && while [ $i -lt 100 ] && ! grep -q listening "$tmp/fmw/log"; do sleep 0.05; i=$((i+1)); done && sed -n 's/.* port \([0-9]*\) .*/\1/p' "$tmp/fmw/log" >"$tmp/fmw/port" && test -s "$tmp/fmw/port"
args: finish default/nope --server "http://127.0.0.1:$(cat "$tmp/fmw/port")"
exit: 1
stderr-has: error: default/nope: no Workload or Job of that name (jobs.batch "nope" not found) [QF563]
after-sh: kill "$(cat "$tmp/fmw/pid")"
