# a bundle file replaced by a FIFO is named at once (verify opened it and
# waited forever for a writer); a FIFO added is tampering too, not a
# note that lets verify pass
setup: audit ingest --db "$tmp/avfifo.db" tests/fixtures/audit/cluster.yaml
setup: audit export --db "$tmp/avfifo.db" --out "$tmp/avfifo"
setup-sh: rm "$tmp/avfifo/inputs.json" && mkfifo "$tmp/avfifo/inputs.json" "$tmp/avfifo/extra"
args: audit verify "$tmp/avfifo"
exit: 1
stderr-has: /avfifo/inputs.json: error: tampered: not a regular file (a FIFO, socket or device); a bundle holds only regular files
stderr-has: /avfifo/extra: error: tampered: not a regular file (a FIFO, socket or device)
stdout-not: verified
