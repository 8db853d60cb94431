# a statement followed by a comment is one statement (it was refused as
# "one statement only"); a second statement after an empty one still is
setup: audit ingest --db "$tmp/aqc.db" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/aqc.db" "select count(*) as n from quotas; -- how many quota rows"
exit: 0
--- stdout
n
4
