# simulate: featureGates UnadmittedWorkloadsObservability false (Kueue v0.18.x-v0.19.2's default) writes the legacy reasons: the scheduler's QuotaReserved=False and its Warning event say Pending (not WaitingForQuota), a missing or stopped LocalQueue is Inadmissible (not Misconfigured / Suspended), and a workload never admitted gets no Admitted=False; the same cluster with the gate at its v0.20 default writes the granular reasons and Admitted=False, NoReservation for each of the three. The gate used to be ignored (QF511).
setup-sh: sed '/^featureGates:/d' tests/fixtures/simulate/legacy-reasons.yaml > "$tmp/legacy-on.yaml"
setup: simulate -f "$tmp/legacy-on.yaml" --events "$tmp/legacy-on.jsonl" --dump-state "$tmp/legacy-on.json"
args: simulate -f tests/fixtures/simulate/legacy-reasons.yaml --events "$tmp/legacy-off.jsonl" --dump-state "$tmp/legacy-off.json"
exit: 0
stderr-not: QF511
after-sh: grep -F '"type":"Warning","reason":"Pending","workload":"team-a/job-wait-dfbe1"' "$tmp/legacy-off.jsonl"
after-sh: ! grep -q 'WaitingForQuota' "$tmp/legacy-off.jsonl" "$tmp/legacy-off.json"
after-sh: tr -d '\n' < "$tmp/legacy-off.json" | tr -s ' ' | grep -F '"reason": "Inadmissible", "message": "LocalQueue nope doesn'
after-sh: tr -d '\n' < "$tmp/legacy-off.json" | tr -s ' ' | grep -F '"reason": "Inadmissible", "message": "LocalQueue held is inactive"'
after-sh: tr -d '\n' < "$tmp/legacy-off.json" | tr -s ' ' | grep -F '"reason": "Pending", "message": "couldn'
after-sh: ! grep -q -e NoReservation -e Misconfigured -e Suspended "$tmp/legacy-off.json"
after-sh: grep -F '"type":"Warning","reason":"WaitingForQuota","workload":"team-a/job-wait-dfbe1"' "$tmp/legacy-on.jsonl"
after-sh: test "$(grep -c '"reason": "NoReservation"' "$tmp/legacy-on.json")" = 3
after-sh: tr -d '\n' < "$tmp/legacy-on.json" | tr -s ' ' | grep -F '"reason": "Misconfigured", "message": "LocalQueue nope doesn'
after-sh: tr -d '\n' < "$tmp/legacy-on.json" | tr -s ' ' | grep -F '"reason": "Suspended", "message": "LocalQueue held is inactive"'
