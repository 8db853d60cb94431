# audit query still runs the pragmas that only read (table_info)
setup: audit ingest --db "$tmp/qg.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/qg.db" "PRAGMA table_info(inputs)"
exit: 0
stdout-has: cid	name	type	notnull	dflt_value	pk
