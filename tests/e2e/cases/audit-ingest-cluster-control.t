# ingest --cluster with a line break or tab would tag every row with it:
# refused, and no database is created
args: audit ingest --db "$tmp/aic.db" --cluster "$(printf 'lon\n1')" tests/fixtures/audit/cluster.yaml
exit: 2
stderr-has: audit ingest: --cluster must not hold control characters (tabs, line breaks)
after-sh: test ! -e "$tmp/aic.db"
