# D11: Kueue changes a condition's reason without changing its lastTransitionTime while the status stays False, so two snapshots of team-r (FlavorNotFound, then Stopped with h200 still missing, both since 09:00:00) give one transition two reasons: the report unites them, and ingesting the watch lines in reverse order gives the same report, byte for byte
setup: audit ingest --db "$tmp/audit-iro.db" tests/fixtures/audit/inactive/watch-reasons.json
setup-sh: tac tests/fixtures/audit/inactive/watch-reasons.json >"$tmp/audit-iro-rev.json" && "$QF" audit ingest --db "$tmp/audit-iro-rev.db" "$tmp/audit-iro-rev.json"
args: audit report --db "$tmp/audit-iro.db" --format json
exit: 0
stdout-has: "reason": "FlavorNotFound,Stopped",
stdout-has: "missing_flavors": "h200",
stdout-has: "from": "2026-06-12T09:00:00.000Z",
after-sh: "$QF" audit report --db "$tmp/audit-iro.db" >"$tmp/iro-a" && "$QF" audit report --db "$tmp/audit-iro-rev.db" >"$tmp/iro-b" && cmp "$tmp/iro-a" "$tmp/iro-b"
