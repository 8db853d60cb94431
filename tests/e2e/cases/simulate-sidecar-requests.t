# A pod's requests count its native sidecars (init containers with
# restartPolicy: Always) as Kubernetes' PodRequests does, which Kueue
# calls: meshed asks 1 + 3500m and never fits the queue's 4 (it was
# admitted on 3500m); setup's pod needs 1 + 2 while its init container runs
# (it was accounted 2)
args: simulate -f tests/fixtures/simulate/sidecar-job.yaml --submit tests/fixtures/simulate/sidecar-jobs.yaml --events "$tmp/sidecar.jsonl"
exit: 0
after-sh: grep -q '"reason":"Admitted","workload":"team-a/job-setup-4c5c7".*"usage":{"default":{"cpu":"3"}}' "$tmp/sidecar.jsonl"
--- stdout
team-a/job-meshed-c0691: pending (ExceedsMaxQuota): couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default, previously considered podsets requests (0) + current podset request (4500m) > maximum capacity (4)
team-a/job-setup-4c5c7: admitted at 0ms in ClusterQueue solo on flavour default, within its nominal quota (not borrowing)
--- stderr
