# an existing database in a folder its user may not write: SQLite needs to
# create its -wal and -shm files there, and said "cannot read the schema
# version: attempt to write a readonly database" of a file that is
# writable; now the folder is named (exit 2).  Run as nobody (root may
# write anywhere).
setup-sh: mkdir -p "$tmp/aidfr"
setup: audit ingest --db "$tmp/aidfr/a.db" tests/fixtures/audit/k8s-events.json
args: audit verify --db "$tmp/aidfr/a.db"
exit: 0
after-sh: chmod 755 "$tmp" && chmod 666 "$tmp/aidfr/a.db" && rm -f "$tmp/aidfr/a.db-wal" "$tmp/aidfr/a.db-shm" && chmod 555 "$tmp/aidfr" && cp tests/fixtures/audit/k8s-events.json "$tmp/aidfr.json" && chmod 644 "$tmp/aidfr.json" && cp "$QF" "$tmp/aidfr-qf" && chmod 755 "$tmp/aidfr-qf"; setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/aidfr-qf" audit ingest --db "$tmp/aidfr/a.db" "$tmp/aidfr.json" 2>"$tmp/aidfr.err"; rc=$?; chmod 755 "$tmp/aidfr"; grep -q 'a.db: error: is in a folder it may not write, where SQLite keeps its -wal and -shm files (Permission denied)' "$tmp/aidfr.err" && test $rc = 2
