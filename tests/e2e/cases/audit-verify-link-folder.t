# the views folder replaced by a link to a copy of it: named as a link
# (verify followed it and passed)
setup: audit ingest --db "$tmp/avd.db" tests/fixtures/audit/cluster.yaml
setup: audit export --db "$tmp/avd.db" --out "$tmp/avd"
setup-sh: mv "$tmp/avd/views" "$tmp/avd-views" && ln -s "$tmp/avd-views" "$tmp/avd/views"
args: audit verify "$tmp/avd"
exit: 1
stderr-has: /avd/views: error: tampered: a symbolic link; a bundle holds only regular files
stdout-not: verified
