# the raw text of a rejected binary file is in views/rejected.json (bytes
# that are not UTF-8 as U+FFFD; the CSV keeps them): json_string refused
# it and the "raw" field was dropped unsaid
setup-sh: printf 'ab\377\376cd: [\n' >"$tmp/aenu.bin"
setup-sh: "$QF" audit ingest --db "$tmp/aenu.db" "$tmp/aenu.bin" tests/fixtures/audit/cluster.yaml; test $? = 1
args: audit export --db "$tmp/aenu.db" --out "$tmp/aenu"
exit: 0
after-sh: grep -q "$(printf '"raw": "ab\357\277\275\357\277\275cd')" "$tmp/aenu/views/rejected.json"
after-sh: "$QF" audit verify "$tmp/aenu"
