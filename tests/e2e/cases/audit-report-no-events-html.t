# a database with no event: the HTML report says it covers no time (markdown and text say the same)
setup: audit ingest --db "$tmp/arneh.db" tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/arneh.db" --format html
exit: 0
stdout-has: <p class="window">Window: none (no events stored; give --since and --until to choose one)</p>
stdout-not: 1970
