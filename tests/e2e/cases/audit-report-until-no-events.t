# audit report --until T over a database with no events: the window is empty at T (nothing places its start); it read 1970-01-01 to T, as if observed since 1970
setup: audit ingest --db "$tmp/arune.db" tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/arune.db" --until 2026-01-01T00:00:00Z
exit: 0
stdout-has: Window: 2026-01-01T00:00:00.000Z to 2026-01-01T00:00:00.000Z
stdout-not: 1970
