# A Workload whose Admitted condition's lastTransitionTime or whose creationTimestamp is no time (a typo in an edited or hand-made record) is rejected at that field, and nothing of it is stored: the condition was skipped without a word, and s1 looked never admitted (waiting, a breach)
setup-sh: sed 's/lastTransitionTime: "2026-06-12T09:02:40Z"/lastTransitionTime: "2026-06-12T09:62:40Z"/' tests/fixtures/audit/inactive/stopped-workloads.yaml >"$tmp/cond.yaml"
setup-sh: sed 's/creationTimestamp: "2026-06-12T09:00:40Z"/creationTimestamp: "yesterday"/' tests/fixtures/audit/inactive/stopped-workloads.yaml >"$tmp/created.yaml"
args: audit ingest --db "$tmp/aiwbt.db" "$tmp/cond.yaml" "$tmp/created.yaml"
exit: 1
stderr-has: cond.yaml:32:27: error: Workload team-s/s1: status.conditions[0].lastTransitionTime "2026-06-12T09:62:40Z" is not a time (RFC 3339, 2026-06-12T09:00:00Z); nothing of it is stored [QF703]
stderr-has: created.yaml:45:73: error: Workload team-u/u1: metadata.creationTimestamp "yesterday" is not a time
after-sh: [ "$($QF audit query --db "$tmp/aiwbt.db" "select group_concat(workload, ' ') from (select distinct workload from workloads order by 1)" | tail -1)" = "team-s/s1 team-u/u1" ]
after-sh: [ "$($QF audit query --db "$tmp/aiwbt.db" "select count(*) from rejected" | tail -1)" = 2 ]
