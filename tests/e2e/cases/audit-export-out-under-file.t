# audit export --out FILE/x: the error says FILE is not a folder; it said "the folder FILE does not exist" of a file that exists
setup: audit ingest --db "$tmp/aeouf.db" tests/fixtures/audit/cluster.yaml
setup-sh: : >"$tmp/aeouf-file"
args: audit export --db "$tmp/aeouf.db" --out "$tmp/aeouf-file/x"
exit: 2
stderr-has: aeouf-file/x: error: --out: 
stderr-has: aeouf-file is not a folder [QF002]
stderr-not: does not exist
