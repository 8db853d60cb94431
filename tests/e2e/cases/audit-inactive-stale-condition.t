# D11: no evidence shows h100 removed, but the last status of team-x the evidence holds (a watch MODIFIED event) says Active False, FlavorNotFound, h100 missing since 09:00:10; the audit log shows h100 created at 09:01:40, so the condition's cause is gone then and team-x is inactive from 09:00:10 to 09:01:40, not to the end of the evidence (no later status was captured)
setup: simulate -f tests/fixtures/audit/flavor-removed/cluster.yaml --trace tests/fixtures/audit/flavor-removed/trace.jsonl --start 2026-06-12T09:00:00Z --events "$tmp/audit-isc.jsonl"
setup: audit ingest --db "$tmp/audit-isc.db" tests/fixtures/audit/flavor-removed/cluster.yaml tests/fixtures/audit/inactive/flavor-created.jsonl tests/fixtures/audit/inactive/stale-status.json "$tmp/audit-isc.jsonl"
args: audit report --db "$tmp/audit-isc.db" --format json
exit: 0
stdout-has: "reason": "FlavorNotFound",
stdout-has: "missing_flavors": "h100",
stdout-has: "from": "2026-06-12T09:00:10.000Z",
stdout-has: "to": "2026-06-12T09:01:40.000Z",
stdout-not: "to": null
