# D3: an audit log at level Metadata holds team-a's delete (09:00:20) but not the response nor Kueue's update that took the finalizer off: Kueue's webhook puts its finalizer on every ClusterQueue, so team-a terminates from then on, lending to team-b (it lent nothing after the delete, all (uncovered)), until it holds nothing (a1 finishes at 09:01:40), when Kueue removes it: the report lists it Terminating to then
setup: simulate -f tests/fixtures/audit/terminating/cluster.yaml --trace tests/fixtures/audit/terminating/trace.jsonl --start 2026-06-12T09:00:00Z --events "$tmp/audit-tmd.jsonl"
setup: audit ingest --db "$tmp/audit-tmd.db" tests/fixtures/audit/terminating/cluster.yaml tests/fixtures/audit/terminating/delete-metadata.jsonl "$tmp/audit-tmd.jsonl"
args: audit report --db "$tmp/audit-tmd.db" --format csv
exit: 0
after-sh: "$QF" audit report --db "$tmp/audit-tmd.db" | grep -Fx '  default  team-a  Terminating  -  2026-06-12T09:00:20.000Z  2026-06-12T09:01:40.000Z  80.000'
after-sh: test "$("$QF" audit query --db "$tmp/audit-tmd.db" "select lender, amount_milli_ms from d_lending order by start_ms")" = "$(printf 'lender\tamount_milli_ms\nteam-a\t180000000.0\nteam-a\t40000000.0')"
stdout-has: default,team-a,2,1,0.000,0.000,0.000,1,110.000,0.000,0.061,0,0,0,
