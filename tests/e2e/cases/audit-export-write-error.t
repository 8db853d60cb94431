# a write error in the middle of an export (here a file size limit; a
# full disk the same) leaves no bundle and no temp folder, and names the
# file where it was to be in DIR, not in the hidden temp folder that is
# gone by then (the waits of 2000 events are past the limit; the
# database's 32 KiB -shm file is not)
setup-sh: awk 'BEGIN { for (i = 0; i < 2000; i++) printf "{\"time_ms\":%d,\"type\":\"Normal\",\"reason\":\"QuotaReserved\",\"workload\":\"team-a/w%d\",\"clusterQueue\":\"team-a\",\"message\":\"Quota reserved in ClusterQueue team-a\"}\n", 1781258400000 + i * 1000, i }' >"$tmp/aew.jsonl"
setup: audit ingest --db "$tmp/aew.db" tests/fixtures/audit/cluster.yaml "$tmp/aew.jsonl"
args: audit export --db "$tmp/aew.db" --out "$tmp/aew-ok"
exit: 0
after-sh: (trap '' XFSZ; ulimit -f 200; "$QF" audit export --db "$tmp/aew.db" --out "$tmp/aew" 2>"$tmp/aew.err"; test $? = 2) && cat "$tmp/aew.err" && grep -q "/aew/views/audit_waits.csv: error: cannot write: File too large \[QF002\]" "$tmp/aew.err" && test ! -e "$tmp/aew" && ! ls -A "$tmp" | grep -q quotaflow-tmp
