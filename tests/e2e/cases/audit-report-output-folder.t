# report -o naming a folder: exit 2 asking for the report file's path
setup: audit ingest --db "$tmp/aro.db" tests/fixtures/audit/cluster.yaml
setup-sh: mkdir -p "$tmp/aro-dir"
args: audit report --db "$tmp/aro.db" -o "$tmp/aro-dir"
exit: 2
stderr-has: /aro-dir: error: -o: is a folder; give the path of a file [QF002]
