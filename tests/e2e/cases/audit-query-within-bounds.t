# within its bounds (--max-bytes exactly the result's size) a query
# prints every row; 0 means no limit
setup: audit ingest --db "$tmp/aqw.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/aqw.db" --timeout 0 --max-bytes 12 "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 5) SELECT x FROM c"
exit: 0
--- stdout
x
1
2
3
4
5
