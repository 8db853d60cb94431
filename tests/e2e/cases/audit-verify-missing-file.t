# a file removed from a bundle is named as missing by the manifest and the
# statement checks, not as a file whose SHA-256 differs
setup: audit ingest --db "$tmp/avr.db" tests/fixtures/audit/cluster.yaml
setup: audit export --db "$tmp/avr.db" --out "$tmp/avr"
setup-sh: rm "$tmp/avr/report.json"
args: audit verify "$tmp/avr"
exit: 1
stderr-has: /avr/report.json: error: tampered: a subject of the in-toto statement, missing or unreadable
stderr-has: /avr/report.json: error: tampered: listed in manifest.json but missing or unreadable
stderr-not: differs
