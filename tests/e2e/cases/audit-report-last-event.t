# without --until the window ends at the last event, inclusive: w2, admitted
# by that very event, is admitted (wait 5 s), not still pending; an --until
# at that instant is the half-open window that leaves it out
setup: audit ingest --db "$tmp/audit-last.db" tests/fixtures/audit/last-event-admission.jsonl
args: audit report --db "$tmp/audit-last.db" --format csv
--- stdout
cluster,cluster_queue,workloads,admitted,wait_p50_s,wait_p95_s,wait_max_s,pending,oldest_pending_s,borrowed_gpu_h,lent_gpu_h,preempted,preempting,breaches,used_gpu_h,cost
default,team-a,2,2,0.000,5.000,5.000,0,-,0.000,0.000,0,0,0,0.000,-
