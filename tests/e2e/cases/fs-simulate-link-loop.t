# simulate -f over a directory with a link loop and a FIFO ends.
setup-sh: mkdir -p "$tmp/sloop" && cp examples/simulate/cluster.yaml "$tmp/sloop/" && ln -s . "$tmp/sloop/self" && mkfifo "$tmp/sloop/pipe.yaml"
args: simulate -f "$tmp/sloop" --trace examples/simulate/trace.jsonl --events /dev/stdout
exit: 0
stdout-has: "reason":"QuotaReserved"
stderr-has: skipped: a FIFO, not a regular file
