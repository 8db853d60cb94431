# --start 2026-11-27t10:00+0100 (lower-case t, no seconds, an offset without a colon) is 09:00:00Z, as audit report reads it: the same events as --start 2026-11-27T09:00:00Z
args: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --start 2026-11-27t10:00+0100 --events "$tmp/sim-start-short.jsonl"
exit: 0
after-sh: head -1 "$tmp/sim-start-short.jsonl" | grep -F '{"time_ms":1795770000000,"type":"Normal","reason":"QuotaReserved","workload":"team-a/job-a1-07ad7"'
