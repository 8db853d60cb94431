# Ctrl-C (SIGINT) stops a running query cleanly: the message says so,
# nothing is printed, and the shell sees an interrupted command (130)
setup: audit ingest --db "$tmp/aqi.db" tests/fixtures/audit/cluster.yaml
setup-sh: timeout --preserve-status -s INT 1 "$QF" audit query --db "$tmp/aqi.db" "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c" >"$tmp/aqi.out" 2>"$tmp/aqi.err"; echo $? >"$tmp/aqi.rc"
args: audit query --db "$tmp/aqi.db" "select count(*) from events"
exit: 0
after-sh: test "$(cat "$tmp/aqi.rc")" = 130 && grep -q "error: interrupted: the query was stopped and nothing was printed" "$tmp/aqi.err" && test ! -s "$tmp/aqi.out"
