# D11 in the JSON report: "inactive" lists team-x (FlavorNotFound, h100 missing) from its removal at 09:00:10.001, "to" null as it is still inactive at the end of the evidence, 120 s of it in the window; team-y, whose a100 only terminates, is not listed, nor after an audit-log delete of a100 at level Metadata (no response: Kueue's finalizer usually holds it)
setup: audit ingest --db "$tmp/audit-frj.db" tests/fixtures/audit/flavor-removed/cluster.yaml tests/fixtures/audit/flavor-removed/watch.json tests/fixtures/audit/flavor-removed/audit-log-metadata.jsonl
args: audit report --db "$tmp/audit-frj.db" --format json
exit: 0
stdout-has: "inactive": [
stdout-has: "reason": "FlavorNotFound",
stdout-has: "missing_flavors": "h100",
stdout-has: "from": "2026-06-12T09:00:10.001Z",
stdout-has: "to": null,
stdout-has: "inactive_s": 120.0
stdout-not: "missing_flavors": "a100"
