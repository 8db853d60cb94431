# audit: a simulated run with featureGates UnadmittedWorkloadsObservability false (the legacy Pending events of Kueue v0.19) ingests into the same audit as the same run with the gate on (WaitingForQuota, WaitingForPreemptedWorkloads): the report, the waits and the breaches are byte for byte the same. The cluster is audit-breach-still-waiting's: d1, preempted at 10s after it was admitted, keeps Admitted=False (it was admitted) in both.
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfeatureGates: {UnadmittedWorkloadsObservability: false}\n' > "$tmp/uwo-off.yaml"
setup: simulate -f tests/fixtures/audit/waiting/cluster.yaml --trace tests/fixtures/audit/waiting/trace.jsonl --until 100s --events "$tmp/uwo-on.jsonl" --dump-state "$tmp/uwo-on.json"
setup: simulate -f tests/fixtures/audit/waiting/cluster.yaml -f "$tmp/uwo-off.yaml" --trace tests/fixtures/audit/waiting/trace.jsonl --until 100s --events "$tmp/uwo-off.jsonl" --dump-state "$tmp/uwo-off.json"
setup: audit ingest --db "$tmp/uwo-on.db" "$tmp/uwo-on.jsonl" "$tmp/uwo-on.json" tests/fixtures/audit/waiting/cluster.yaml
setup: audit ingest --db "$tmp/uwo-off.db" "$tmp/uwo-off.jsonl" "$tmp/uwo-off.json" tests/fixtures/audit/waiting/cluster.yaml
setup: audit report --db "$tmp/uwo-on.db" --format json -o "$tmp/uwo-on.report.json"
setup-sh: for v in audit_waits audit_breaches audit_preemptions; do "$QF" audit query --db "$tmp/uwo-on.db" "select * from $v" || exit 1; done > "$tmp/uwo-on.views"
setup-sh: for v in audit_waits audit_breaches audit_preemptions; do "$QF" audit query --db "$tmp/uwo-off.db" "select * from $v" || exit 1; done > "$tmp/uwo-off.views"
args: audit report --db "$tmp/uwo-off.db" --format json -o "$tmp/uwo-off.report.json"
exit: 0
after-sh: test "$(grep -c '"type":"Warning","reason":"Pending"' "$tmp/uwo-off.jsonl")" = 2
after-sh: grep -q '"reason":"WaitingForPreemptedWorkloads"' "$tmp/uwo-on.jsonl"
after-sh: cmp "$tmp/uwo-on.report.json" "$tmp/uwo-off.report.json"
after-sh: test -s "$tmp/uwo-on.views" && cmp "$tmp/uwo-on.views" "$tmp/uwo-off.views"
after-sh: tr -d '\n' < "$tmp/uwo-off.json" | tr -s ' ' | grep -F '"type": "Admitted", "status": "False", "observedGeneration": 1, "lastTransitionTime": "1970-01-01T00:00:10Z", "reason": "NoReservation"'
