# simulate --dump-state: a ClusterQueue's Active condition has the lastTransitionTime of its last status change, not the start: team-a, stopped at 10 s (09:00:10) and run again at 110 s, says False since 09:00:10 at 50 s and True since 09:01:50 at 120 s; team-b, active throughout, since the start (it said 09:00:00 for both)
setup: simulate -f tests/fixtures/audit/inactive/lender.yaml --trace tests/fixtures/audit/inactive/lender-trace.jsonl --start 2026-06-12T09:00:00Z --until 50s --dump-state "$tmp/sdat-50.json"
args: simulate -f tests/fixtures/audit/inactive/lender.yaml --trace tests/fixtures/audit/inactive/lender-trace.jsonl --start 2026-06-12T09:00:00Z --until 120s --dump-state "$tmp/sdat-120.json"
exit: 0
after-sh: tr -d ' \n' <"$tmp/sdat-50.json" | grep -qF '"type":"Active","status":"False","observedGeneration":1,"lastTransitionTime":"2026-06-12T09:00:10Z","reason":"Stopped"'
after-sh: tr -d ' \n' <"$tmp/sdat-120.json" | grep -qF '"type":"Active","status":"True","observedGeneration":1,"lastTransitionTime":"2026-06-12T09:01:50Z","reason":"Ready"'
after-sh: test "$(tr -d ' \n' <"$tmp/sdat-120.json" | grep -oF '"type":"Active","status":"True","observedGeneration":1,"lastTransitionTime":"2026-06-12T09:00:00Z","reason":"Ready","message":"Canadmit' | wc -l)" = 1
