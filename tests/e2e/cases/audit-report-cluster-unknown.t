# report --cluster naming a cluster the database does not hold is an
# error listing those it holds (it was an empty report, exit 0)
setup: audit ingest --db "$tmp/arc.db" --cluster lon1 tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/arc.db" --cluster lon-1
exit: 2
stderr-has: /arc.db: error: --cluster 'lon-1': the database holds no evidence of that cluster
stderr-has: hint: it holds 'lon1'
--- stdout
