# a bundle file replaced by a FIFO is named at once (verify opened it and
# waited forever for a writer); a FIFO added is tampering too, not a
# note that lets verify pass
setup: audit ingest --db "$tmp/avf.db" tests/fixtures/audit/cluster.yaml
setup: audit export --db "$tmp/avf.db" --out "$tmp/avf"
setup-sh: rm "$tmp/avf/inputs.json" && mkfifo "$tmp/avf/inputs.json" "$tmp/avf/extra"
args: audit verify "$tmp/avf"
exit: 1
stderr-has: /avf/inputs.json: error: tampered: not a regular file (a FIFO, socket or device); a bundle holds only regular files
stderr-has: /avf/extra: error: tampered: not a regular file (a FIFO, socket or device)
stdout-not: verified
