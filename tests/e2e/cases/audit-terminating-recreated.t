# D11: the watch of audit-terminating-watch with the status Kueue writes from v0.18.5 on (Active False, Terminating, since the deletion), then team-a created again at 09:01:50 with no status yet: Terminating from the deletion to the removal only; the old condition does not outlive the object it was about
setup: simulate -f tests/fixtures/audit/terminating/cluster.yaml --trace tests/fixtures/audit/terminating/trace.jsonl --start 2026-06-12T09:00:00Z --events "$tmp/audit-trc.jsonl"
setup: audit ingest --db "$tmp/audit-trc.db" tests/fixtures/audit/terminating/cluster.yaml tests/fixtures/audit/terminating/watch-recreated.json "$tmp/audit-trc.jsonl"
args: audit report --db "$tmp/audit-trc.db" --format markdown
exit: 0
stdout-has: | default | team-a | Terminating | - | 2026-06-12T09:00:20.000Z | 2026-06-12T09:01:40.000Z | 80.000 |
stdout-not: 2026-06-12T09:01:50.000Z
