# a hidden file or folder added to a bundle is tampering too: verify
# walked the bundle as the input collector does, skipping dot entries,
# and passed (exit 0)
setup: audit ingest --db "$tmp/avh.db" tests/fixtures/audit/cluster.yaml
setup: audit export --db "$tmp/avh.db" --out "$tmp/avh"
setup-sh: echo x >"$tmp/avh/.extra" && mkdir "$tmp/avh/views/.git" && echo y >"$tmp/avh/views/.git/config"
args: audit verify "$tmp/avh"
exit: 1
stderr-has: /avh/.extra: error: tampered: not in manifest.json
stderr-has: /avh/views/.git/config: error: tampered: not in manifest.json
stdout-not: verified
