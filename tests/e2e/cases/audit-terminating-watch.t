# D10: a watch shows team-a MODIFIED with a deletionTimestamp of 09:00:20 (terminating: inactive, its quota still lent) and then DELETED, last written at 09:01:40 (Kueue taking its finalizer off): removed at 09:01:40.001 at the latest; the report ends its Terminating stretch at 09:01:40, when a1 finished and team-a held nothing (Kueue removes it then).  team-b's borrowing is lent by team-a throughout, a2 waiting in it is no breach, and the deletion is one policy change at the deletionTimestamp
setup: simulate -f tests/fixtures/audit/terminating/cluster.yaml --trace tests/fixtures/audit/terminating/trace.jsonl --start 2026-06-12T09:00:00Z --events "$tmp/audit-twat.jsonl"
setup: audit ingest --db "$tmp/audit-twat.db" tests/fixtures/audit/terminating/cluster.yaml tests/fixtures/audit/terminating/watch.json "$tmp/audit-twat.jsonl"
args: audit report --db "$tmp/audit-twat.db"
exit: 0
stdout-has:   default  team-a  Terminating  -  2026-06-12T09:00:20.000Z  2026-06-12T09:01:40.000Z  80.000
after-sh: test "$("$QF" audit query --db "$tmp/audit-twat.db" "select group_concat(lenders, ';') from audit_borrowing")" = "$(printf 'group_concat(lenders, '"'"';'"'"')\nteam-a;team-a')"
after-sh: test "$("$QF" audit query --db "$tmp/audit-twat.db" "select count(*) from audit_breaches")" = "$(printf 'count(*)\n0')"
after-sh: test "$("$QF" audit query --db "$tmp/audit-twat.db" "select at, kind, name from audit_policy_changes where verb = 'delete'")" = "$(printf 'at\tkind\tname\n2026-06-12T09:00:20.000Z\tClusterQueue\tteam-a')"
