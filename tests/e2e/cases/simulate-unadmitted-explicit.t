# simulate: featureGates UnadmittedWorkloadsExplicitStatus true (beta, off by default) gives a workload QuotaReserved=False, PendingEvaluation and Admitted=False, NoReservation at its first reconcile, before the scheduler looks at it: shard-2, which the scheduler never evaluates (same shape as shard-1, which waits), has them, where by default it has no condition at all. With UnadmittedWorkloadsObservability off as well it has no effect, and says so (QF511), as Kueue requires that gate for it.
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfeatureGates: {UnadmittedWorkloadsExplicitStatus: true}\n' > "$tmp/explicit.yaml"
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfeatureGates: {UnadmittedWorkloadsExplicitStatus: true, UnadmittedWorkloadsObservability: false}\n' > "$tmp/explicit-legacy.yaml"
setup: simulate -f examples/simulate/cluster.yaml --submit examples/simulate/jobs.yaml --dump-state "$tmp/explicit-default.json"
setup-sh: "$QF" simulate -f examples/simulate/cluster.yaml -f "$tmp/explicit-legacy.yaml" --submit examples/simulate/jobs.yaml --dump-state "$tmp/explicit-legacy.json" 2> "$tmp/explicit-legacy.err"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/explicit.yaml" --submit examples/simulate/jobs.yaml --dump-state "$tmp/explicit.json"
exit: 0
stderr-not: QF511
stdout-has: team-a/job-shard-2-cd256: pending (PendingEvaluation): Workload is pending evaluation in the scheduling queue
after-sh: tr -d '\n' < "$tmp/explicit.json" | tr -s ' ' | grep -F '"name": "job-shard-2-cd256", "namespace": "team-a",' | grep -F '"reason": "PendingEvaluation", "message": "Workload is pending evaluation in the scheduling queue" }, { "type": "Admitted", "status": "False", "observedGeneration": 1, "lastTransitionTime": "1970-01-01T00:00:00Z", "reason": "NoReservation"'
after-sh: ! grep -q PendingEvaluation "$tmp/explicit-default.json" "$tmp/explicit-legacy.json"
after-sh: grep -F 'explicit-legacy.yaml:3:51: warning: feature gate UnadmittedWorkloadsExplicitStatus has no effect while UnadmittedWorkloadsObservability is off' "$tmp/explicit-legacy.err"
