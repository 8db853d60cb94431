# a manifest.json emptied to {} is named as such
setup: audit ingest --db "$tmp/avz.db" tests/fixtures/audit/cluster.yaml
setup: audit export --db "$tmp/avz.db" --out "$tmp/avz"
setup-sh: echo '{}' >"$tmp/avz/manifest.json"
args: audit verify "$tmp/avz"
exit: 1
stderr-has: /avz/manifest.json: error: tampered: it has no "files" list
