# audit ingest --db naming a link to a missing file does not create the
# database wherever the link points
setup-sh: mkdir -p "$tmp/dbl" && rm -f "$tmp/dbl/e.db" && ln -sf "$tmp/dbl/elsewhere.db" "$tmp/dbl/e.db"
args: audit ingest --db "$tmp/dbl/e.db" tests/fixtures/audit/cluster.yaml
exit: 2
stderr-has: /dbl/e.db: error: is a symbolic link to a missing file; quotaflow does not create files through links [QF002]
after-sh: test ! -e "$tmp/dbl/elsewhere.db"
