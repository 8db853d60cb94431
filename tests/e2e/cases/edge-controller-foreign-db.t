# controller --db naming an audit database (or any other SQLite file)
# refuses to start and adds no tables of its own to it
setup: audit ingest --db "$tmp/cfd.db" tests/fixtures/audit/cluster.yaml
setup-sh: cp "$tmp/cfd.db" "$tmp/cfd.orig"
args: controller --db "$tmp/cfd.db" --listen 127.0.0.1:0
exit: 2
stderr-has: error: is not a controller database (it holds tables audit_borrowing
after-sh: cmp "$tmp/cfd.db" "$tmp/cfd.orig"
