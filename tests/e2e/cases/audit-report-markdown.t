# Markdown report: a table per tenant and the lending table
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/audit-rep.jsonl"
setup: audit ingest --db "$tmp/audit-repm.db" "$tmp/audit-rep.jsonl" tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/audit-repm.db" --format markdown
stdout-has: | default | team-d | 1 | 1 | 90.000 | 90.000 | 90.000 | 0 | - | 0.000 | 0.083 | 0 | 0 | 1 | 0.003 | - |
stdout-has: | default | team-b | team-a | 0.061 |
