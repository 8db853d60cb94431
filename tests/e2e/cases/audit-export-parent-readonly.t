# audit export into a folder its user may not write: the error says what
# it could not do there; it read "cannot create a temporary directory in:
# Permission denied", cut off.  Run as nobody (root may write anywhere).
setup-sh: mkdir -p "$tmp/aepr" && chmod 555 "$tmp/aepr"
setup: audit ingest --db "$tmp/aepr.db" tests/fixtures/audit/k8s-events.json
args: audit verify --db "$tmp/aepr.db"
exit: 0
after-sh: chmod 755 "$tmp" && chmod 644 "$tmp/aepr.db" && cp "$QF" "$tmp/aepr-qf" && chmod 755 "$tmp/aepr-qf"; setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/aepr-qf" audit export --db "$tmp/aepr.db" --out "$tmp/aepr/bundle" 2>"$tmp/aepr.err"; rc=$?; grep -q 'aepr: error: cannot create a folder in it (what is written is built in a hidden folder there, then renamed into place): Permission denied' "$tmp/aepr.err" && test $rc = 2 && test ! -e "$tmp/aepr/bundle"
