# a bundle file replaced by a link to a copy of itself (outside the
# bundle) is named: the bundle is no longer what was sealed, and a copy
# of it would read whatever the link points to then (verify followed
# the link and passed)
setup: audit ingest --db "$tmp/avl.db" tests/fixtures/audit/cluster.yaml
setup: audit export --db "$tmp/avl.db" --out "$tmp/avl"
setup-sh: mv "$tmp/avl/report.html" "$tmp/avl-report.html" && ln -s "$tmp/avl-report.html" "$tmp/avl/report.html"
args: audit verify "$tmp/avl"
exit: 1
stderr-has: /avl/report.html: error: tampered: a symbolic link; a bundle holds only regular files
stdout-not: verified
