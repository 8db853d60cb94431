# JSON report: counts are integers, unknown values null
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/audit-rep.jsonl"
setup: audit ingest --db "$tmp/audit-repj.db" "$tmp/audit-rep.jsonl" tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/audit-repj.db" --format json --cluster default
stdout-has: "cluster_queue": "team-d",
stdout-has: "breaches": 1,
stdout-has: "cost": null
stdout-has: "lender": "team-d",
