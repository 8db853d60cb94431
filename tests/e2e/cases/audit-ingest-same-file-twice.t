# the same file named twice (f and ./f, or a folder and a file in it) is
# read once, with a warning: it was read twice, its records counted
# twice ("22 records: 11 added") and a second inputs row kept for ./f
args: audit ingest --db "$tmp/aisft.db" tests/fixtures/audit/k8s-events.json ./tests/fixtures/audit/k8s-events.json
exit: 0
stderr-has: ./tests/fixtures/audit/k8s-events.json: warning: is the same file as tests/fixtures/audit/k8s-events.json, named before: it is read once
stdout-has: ingested 11 records: 11 added, 0 rejected
after-sh: test "$("$QF" audit query --db "$tmp/aisft.db" "select count(*) from inputs" | tail -1)" = 1
