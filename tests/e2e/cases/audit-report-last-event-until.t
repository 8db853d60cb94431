# an --until at the instant of the last event is half-open: w2's admission
# then is outside the window, so w2 is pending, 5 s old
setup: audit ingest --db "$tmp/audit-last2.db" tests/fixtures/audit/last-event-admission.jsonl
args: audit report --db "$tmp/audit-last2.db" --format csv --until 2026-06-12T10:00:05Z
--- stdout
cluster,cluster_queue,workloads,admitted,wait_p50_s,wait_p95_s,wait_max_s,pending,oldest_pending_s,borrowed_gpu_h,lent_gpu_h,preempted,preempting,breaches,used_gpu_h,cost
default,team-a,2,1,0.000,0.000,0.000,1,5.000,0.000,0.000,0,0,0,0.000,-
