# --since and --until take a date alone (midnight UTC), minutes without
# seconds, and an offset written +0200 or +02; the window shows the
# instants they mean
setup: audit ingest --db "$tmp/ard.db" tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/ard.db" --since 2026-11-01 --until "2026-11-02 10:30+0200" --format json
exit: 0
stdout-has: "from": "2026-11-01T00:00:00.000Z"
stdout-has: "to": "2026-11-02T08:30:00.000Z"
