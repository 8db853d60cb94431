# --start takes the forms audit report --since/--until take (one parser, core/when.h): a date alone is midnight UTC, so a1 is reserved at 2026-11-27T00:00:00Z (epoch ms 1795737600000) and b1 admitted 10 s later
args: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --start 2026-11-27 --events "$tmp/sim-start-date.jsonl"
exit: 0
after-sh: head -1 "$tmp/sim-start-date.jsonl" | grep -F '{"time_ms":1795737600000,"type":"Normal","reason":"QuotaReserved","workload":"team-a/job-a1-07ad7"'
after-sh: grep -F '"time_ms":1795737610000,"type":"Normal","reason":"Admitted","workload":"team-b/job-b1-1b3f0"' "$tmp/sim-start-date.jsonl"
