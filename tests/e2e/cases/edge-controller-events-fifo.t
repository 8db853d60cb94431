# controller --events naming a FIFO nothing reads: an error at once, not a
# controller hanging before it serves
setup-sh: mkdir -p "$tmp/cee" && rm -f "$tmp/cee/p" && mkfifo "$tmp/cee/p"
args: controller --db "$tmp/cee/c.db" --listen 127.0.0.1:0 --events "$tmp/cee/p"
exit: 2
stderr-has: /cee/p: error: is a FIFO that nothing reads yet; start its reader first [QF002]
