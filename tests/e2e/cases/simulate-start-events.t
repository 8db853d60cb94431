# --start anchors the virtual clock (docs/simulate.md): the events' time_ms are epoch ms from 2026-11-27T09:00:00Z (a1 admitted at once, b1 at 10s) and --dump-state's condition times are that day's; the report keeps counting from 0
args: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --start 2026-11-27T09:00:00Z --events "$tmp/sim-start.jsonl" --dump-state "$tmp/sim-start-dump.json" --summary "$tmp/sim-start-sum.json"
exit: 0
after-sh: head -1 "$tmp/sim-start.jsonl" | grep -F '{"time_ms":1795770000000,"type":"Normal","reason":"QuotaReserved","workload":"team-a/job-a1-07ad7"'
after-sh: grep -F '"time_ms":1795770010000,"type":"Normal","reason":"Admitted","workload":"team-b/job-b1-1b3f0"' "$tmp/sim-start.jsonl"
after-sh: grep -F '"lastTransitionTime": "2026-11-27T09:00:10Z"' "$tmp/sim-start-dump.json"
after-sh: ! grep -F '"1970-' "$tmp/sim-start-dump.json"
after-sh: grep -F '"makespan_ms": 120000' "$tmp/sim-start-sum.json"
