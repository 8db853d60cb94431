# an empty input file is an error (exit 1), not "0 records" and exit 0;
# the other inputs are still ingested
setup-sh: : >"$tmp/aie.json"
args: audit ingest --db "$tmp/aie.db" "$tmp/aie.json" tests/fixtures/audit/cluster.yaml
exit: 1
stderr-has: /aie.json: error: is empty: nothing to ingest
stdout-has: ingested 9 records: 9 added, 0 rejected
