# simulate: a loaded Workload that names a WorkloadPriorityClass takes the class's value at the start, as Kueue's WorkloadPriorityClass controller does when it starts and sees every class created: "stale" (spec.priority 100, class high = 1000) is admitted before "other" (500) and its dump says priority 1000 (it kept 100 and lost the only place to "other")
args: simulate -f tests/fixtures/simulate/wpc-stale-priority.yaml --cycles 2 --dump-state "$tmp/wpc-start.json"
exit: 0
after-sh: tr -d ' \n' <"$tmp/wpc-start.json" | grep -qF '"name":"stale","namespace":"ns","generation":1,"creationTimestamp":"2026-01-01T00:00:00Z"},"spec":{"queueName":"lq","podSets":[{"name":"main","count":1,"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}}],"priority":1000,'
after-sh: tr -d ' \n' <"$tmp/wpc-start.json" | grep -o '"name":"other".*' | grep -q '"reason":"WaitingForQuota"'
