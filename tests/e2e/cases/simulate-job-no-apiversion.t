# simulate: a Job without an apiVersion, or of apiVersion v1, is an error at its line (kubectl: "apiVersion not set"; the API server serves Job only as batch/v1); it was a QF511 warning that read as if simulate could not read Jobs, and the Job was dropped
setup-sh: printf 'kind: Job\nmetadata: {name: x, namespace: team-a, labels: {kueue.x-k8s.io/queue-name: main}}\n---\napiVersion: v1\nkind: Job\nmetadata: {name: y, namespace: team-a}\n' >"$tmp/jobs.yaml"
args: simulate -f examples/simulate/cluster.yaml --submit "$tmp/jobs.yaml"
exit: 1
stderr-has: jobs.yaml:1:7: error: Job without an apiVersion: kubectl and the API server refuse it [QF510]
stderr-has: hint: add apiVersion: batch/v1
stderr-has: jobs.yaml:4:13: error: Job of apiVersion v1: the API server serves Job only as batch/v1 [QF510]
stderr-has: hint: write apiVersion: batch/v1
stderr-not: QF511
