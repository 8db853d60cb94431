# a query that never ends (a recursive CTE without a bound) is stopped by
# --timeout: exit 1, the bound named with how to raise it, nothing printed
setup: audit ingest --db "$tmp/aqt.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/aqt.db" --timeout 1s "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c"
exit: 1
stderr-has: <query>:1:1: error: the query ran longer than --timeout 1s and was stopped; nothing was printed
stderr-has: hint: bound it (LIMIT, a WHERE on the time columns), or give more time: --timeout 10m (0: no limit)
--- stdout
