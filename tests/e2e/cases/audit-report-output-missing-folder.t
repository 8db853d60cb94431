# report -o into a folder that does not exist: exit 2 naming -o and the
# folder, before the report is built
setup: audit ingest --db "$tmp/arm.db" tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/arm.db" -o "$tmp/arm-missing/r.html" --format html
exit: 2
stderr-has: /arm-missing/r.html: error: -o: the folder
stderr-has: /arm-missing does not exist [QF002]
