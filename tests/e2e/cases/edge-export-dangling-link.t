# audit export --out naming a link to a missing path creates nothing where
# the link points (the rename would follow no link, but nothing is even
# written: the link is refused first)
setup-sh: mkdir -p "$tmp/exd" && ln -s "$tmp/exd/elsewhere" "$tmp/exd/bundle"
setup: audit ingest --db "$tmp/exd/a.db" tests/fixtures/audit/cluster.yaml
args: audit export --db "$tmp/exd/a.db" --out "$tmp/exd/bundle"
exit: 2
stderr-has: is a symbolic link; export writes a new directory [QF002]
after-sh: test ! -e "$tmp/exd/elsewhere" && test -L "$tmp/exd/bundle" && test "$(ls -A "$tmp/exd" | grep -c quotaflow-tmp)" = 0
