# --since/--until: waits of admissions in the window, intervals prorated,
# team-d still pending at the end of the window (40 s old); team-d used no
# GPU in the window but h100 has a price: its cost is 0.00, not -
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/audit-rep.jsonl"
setup: audit ingest --db "$tmp/audit-repw.db" "$tmp/audit-rep.jsonl" tests/fixtures/audit/cluster.yaml tests/fixtures/audit/pool.yaml
args: audit report --db "$tmp/audit-repw.db" --format csv --since 1970-01-01T00:00:05Z --until 1970-01-01T00:00:50Z
--- stdout
cluster,cluster_queue,workloads,admitted,wait_p50_s,wait_p95_s,wait_max_s,pending,oldest_pending_s,borrowed_gpu_h,lent_gpu_h,preempted,preempting,breaches,used_gpu_h,cost
default,team-a,1,1,10.000,10.000,10.000,0,-,0.019,0.000,1,0,0,0.058,0.15
default,team-b,1,1,0.000,0.000,0.000,0,-,0.000,0.019,0,1,0,0.011,0.03
default,team-c,0,0,-,-,-,0,-,0.037,0.000,0,0,0,0.087,0.22
default,team-d,1,0,-,-,-,1,40.000,0.000,0.037,0,0,0,0.000,0.00
