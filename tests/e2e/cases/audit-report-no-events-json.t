# a database with no event: report --format json has no window (from and to null), not the epoch
setup: audit ingest --db "$tmp/arnej.db" tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/arnej.db" --format json
exit: 0
stdout-has: "from": null,
stdout-has: "to": null,
stdout-not: 1970
