# audit ingest --db naming a file that is not SQLite: a clear error, the
# file untouched, no count printed
setup-sh: mkdir -p "$tmp/dbn" && printf 'tenants: not a database\n' >"$tmp/dbn/x.db" && cp "$tmp/dbn/x.db" "$tmp/dbn/orig"
args: audit ingest --db "$tmp/dbn/x.db" tests/fixtures/audit/cluster.yaml
exit: 2
stderr-has: /dbn/x.db: error: is not an SQLite database; audit ingest writes only into a new or empty file or an audit database [QF002]
stdout-not: ingested
after-sh: cmp "$tmp/dbn/x.db" "$tmp/dbn/orig" && test "$(ls -A "$tmp/dbn")" = "$(printf 'orig\nx.db')"
