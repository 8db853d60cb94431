# a bundle whose manifest.json was removed is tampered, named without a
# made-up line number (jansson's -1 printed as line 4294967295)
setup: audit ingest --db "$tmp/vmm.db" tests/fixtures/audit/cluster.yaml
setup-sh: rm -rf "$tmp/vmm" && true
setup: audit export --db "$tmp/vmm.db" --out "$tmp/vmm"
setup-sh: rm "$tmp/vmm/manifest.json"
args: audit verify "$tmp/vmm"
exit: 1
stderr-has: /vmm/manifest.json: error: tampered: missing or unreadable
stderr-not: 4294967295
