# a bundle whose manifest.json was removed: that is named, and the other
# files are not each reported as "not in manifest.json"
setup: audit ingest --db "$tmp/avn.db" tests/fixtures/audit/cluster.yaml
setup: audit export --db "$tmp/avn.db" --out "$tmp/avn"
setup-sh: rm "$tmp/avn/manifest.json"
args: audit verify "$tmp/avn"
exit: 1
stderr-has: /avn/manifest.json: error: tampered: missing or unreadable
stderr-not: not in manifest.json
