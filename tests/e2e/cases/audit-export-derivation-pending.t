# events a stream ingest committed before its next derivation (--derive-interval; here its
# checkpoint dropped, as a stream's batch does) are in no view yet: export writes no bundle
# whose views miss them (verify then called it tampered) and says how to derive them
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/aedp.jsonl"
setup: audit ingest --db "$tmp/aedp.db" tests/fixtures/audit/cluster.yaml "$tmp/aedp.jsonl"
setup-sh: sqlite3 "$tmp/aedp.db" "DELETE FROM d_ckpt"
args: audit export --db "$tmp/aedp.db" --out "$tmp/aedp-bundle"
exit: 1
stderr-has: aedp.db: error: cluster 'default' has events stored after its last derivation (a stream ingest between two derivations, or one stopped before its next): the bundle's views and report would not show them; nothing is written
stderr-has: hint: let the stream derive (--derive-interval) or end it, or ingest any input again with --cluster default
after-sh: test ! -e "$tmp/aedp-bundle"
after-sh: $QF audit ingest --db "$tmp/aedp.db" "$tmp/aedp.jsonl" && $QF audit export --db "$tmp/aedp.db" --out "$tmp/aedp-bundle" && $QF audit verify "$tmp/aedp-bundle" | grep -q "views: 12 files derived again"
