# a database with quotas and no event yet: the report covers no time and says so, instead of
# a window "1970-01-01T00:00:00.000Z to 1970-01-01T00:00:00.000Z" that nothing observed
setup: audit ingest --db "$tmp/arne.db" tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/arne.db"
exit: 0
stdout-has: Window: none (no events stored; give --since and --until to choose one)
stdout-has: default  team-a         0          0
stdout-not: 1970
