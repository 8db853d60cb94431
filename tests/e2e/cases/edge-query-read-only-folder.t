# evidence in a folder the reader cannot write (an archive, a read-only
# mount): audit query and report still read it (SQLite is told the file
# cannot change, as WAL would need its -shm file beside it)
setup-sh: rm -rf "$tmp/rof" && mkdir -p "$tmp/rof" && chmod 711 "$tmp"
setup: audit ingest --db "$tmp/rof/a.db" tests/fixtures/audit/cluster.yaml
setup-sh: chmod 755 "$tmp/rof" && chmod 644 "$tmp/rof/a.db" && rm -f "$tmp/rof/a.db-wal" "$tmp/rof/a.db-shm"
args: audit query --db "$tmp/rof/a.db" "select count(*) from inputs"
exit: 0
after-sh: rm -f "$tmp/rof/a.db-wal" "$tmp/rof/a.db-shm"; if [ "$(id -u)" = 0 ]; then as="setpriv --reuid=65534 --regid=65534 --clear-groups"; else chmod 555 "$tmp/rof"; as=; fi; $as "$QF" audit query --db "$tmp/rof/a.db" "select count(*) from inputs" | grep -qx 1 && $as "$QF" audit report --db "$tmp/rof/a.db" >/dev/null; r=$?; chmod 755 "$tmp/rof"; exit $r
