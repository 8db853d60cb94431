# a result longer than --max-bytes is not printed at all (not cut short):
# exit 1 naming the bound
setup: audit ingest --db "$tmp/aqm.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/aqm.db" --max-bytes 100 "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 1000) SELECT x FROM c"
exit: 1
stderr-has: <query>:1:1: error: the result is longer than --max-bytes 100 bytes; nothing was printed
stderr-has: raise --max-bytes (0: no limit)
--- stdout
