# --out DIR/ names the same directory as DIR: the bundle lands there and verifies
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/audit-slash.jsonl"
setup: audit ingest --db "$tmp/audit-slash.db" "$tmp/audit-slash.jsonl"
setup: audit export --db "$tmp/audit-slash.db" --out "$tmp/audit-slash-bundle/"
args: audit verify "$tmp/audit-slash-bundle"
stdout-has: verified: 27 files, 22 events, chain head 
