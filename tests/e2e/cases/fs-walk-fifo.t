# A FIFO in an input directory is skipped with a note, never read (it
# would block forever waiting for a writer).
setup-sh: mkdir -p "$tmp/fifo" && cp examples/tenants/pool.yaml "$tmp/fifo/" && mkfifo "$tmp/fifo/zz.yaml"
args: validate "$tmp/fifo"
exit: 0
stderr-has: note: skipped: a FIFO, not a regular file [QF005]
stderr-has: fifo/zz.yaml
