# a `kubectl get events -A -o json` List cut short (a killed kubectl, a
# copy that stopped) keeps the items before the cut and rejects the rest
# at the item the input ends in; a List under 64 MiB was read whole, so
# every item was lost to one "premature end of input" (one over 64 MiB
# already kept them)
setup-sh: head -c 5000 tests/fixtures/audit/k8s-events.json >"$tmp/ailc.json"
args: audit ingest --db "$tmp/ailc.db" "$tmp/ailc.json"
exit: 1
stderr-has: ailc.json:119:9: error: the list is cut short inside item 5, which starts here and is not stored: the input ends at line 136, column 86, where the rest of it, then `]`, is expected [QF701]
stderr-has: hint: the input stops before the list's end: was kubectl or the copy stopped? The 4 items before are stored
stdout-has: ingested 5 records: 4 added, 1 rejected
after-sh: test "$("$QF" audit query --db "$tmp/ailc.db" "select group_concat(reason) from (select reason from events order by id)")" = "$(printf 'group_concat(reason)\nPending,QuotaReserved,Admitted,EvictedDueToPreempted')"
