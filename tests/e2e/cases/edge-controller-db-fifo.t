# controller --db naming a FIFO exits 2 at once instead of hanging
setup-sh: mkdir -p "$tmp/cdf" && rm -f "$tmp/cdf/p" && mkfifo "$tmp/cdf/p"
args: controller --db "$tmp/cdf/p" --listen 127.0.0.1:0
exit: 2
stderr-has: /cdf/p: error: is a FIFO, not a regular file [QF002]
