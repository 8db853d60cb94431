# a manifest.json that is not JSON: named with the line and column
# jansson stopped at (the column was always 1)
setup: audit ingest --db "$tmp/avj.db" tests/fixtures/audit/cluster.yaml
setup: audit export --db "$tmp/avj.db" --out "$tmp/avj"
setup-sh: printf '{"files":\n  [ not json\n' >"$tmp/avj/manifest.json"
args: audit verify "$tmp/avj"
exit: 1
stderr-has: /avj/manifest.json:2:7: error: tampered: not JSON:
stderr-has: /avj/manifest.json: error: tampered: its SHA-256 differs from the in-toto statement's subject
