# A name read from evidence holding a comma and quotes is one quoted CSV
# field (RFC 4180), its quotes doubled; before, it split the row into
# more columns than the header has.
setup: audit ingest --db "$tmp/arcc.db" tests/fixtures/audit/crafted-names.jsonl
args: audit report --db "$tmp/arcc.db" --format csv
exit: 0
--- stdout
cluster,cluster_queue,workloads,admitted,wait_p50_s,wait_p95_s,wait_max_s,pending,oldest_pending_s,borrowed_gpu_h,lent_gpu_h,preempted,preempting,breaches,used_gpu_h,cost
default,"a,""b""",1,1,0.000,0.000,0.000,0,-,0.000,0.000,0,0,0,0.000,-
default,q|<img src=x onerror=alert(1)>`x,1,1,0.000,0.000,0.000,0,-,0.000,0.000,0,0,0,0.000,-
default,team-a,1,1,0.000,0.000,0.000,0,-,0.000,0.000,0,0,0,0.000,-
