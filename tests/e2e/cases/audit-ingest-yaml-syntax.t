# a YAML input with a syntax error is named at the line and column of
# the error, with the loader's rule, and says that none of the file is
# stored (it said "not a recognised evidence format" at 21:1, QF702, with
# advice about kubectl describe)
setup-sh: awk 'NR == 20 { print "      - {name: nvidia.com/gpu, nominalQuota: \"4\""; next } 1' tests/fixtures/audit/cluster.yaml >"$tmp/aiys.yaml"
args: audit ingest --db "$tmp/aiys.db" "$tmp/aiys.yaml"
exit: 1
stderr-has: /aiys.yaml:21:7: error: YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping at 20:9) [QF010]
stderr-has: nothing of this file is stored
stderr-not: not a recognised evidence format
stdout-has: ingested 1 records: 0 added, 1 rejected
