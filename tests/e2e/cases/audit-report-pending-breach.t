# The report judges waits still running at the end of its window (D8): at --until 60s d1 has waited 50s, not a breach of the stored 60s, but one of --breach-after 30s; team-c and team-e have no Pool price: cost stays -
setup: simulate -f tests/fixtures/audit/waiting/cluster.yaml --trace tests/fixtures/audit/waiting/trace.jsonl --until 100s --events "$tmp/audit-rpb.jsonl"
setup: audit ingest --db "$tmp/audit-rpb.db" "$tmp/audit-rpb.jsonl" tests/fixtures/audit/waiting/cluster.yaml
setup-sh: $QF audit report --db "$tmp/audit-rpb.db" --format csv --until 1970-01-01T00:01:00Z > "$tmp/audit-rpb-60.csv"
args: audit report --db "$tmp/audit-rpb.db" --format csv --until 1970-01-01T00:01:00Z --breach-after 30s
after-sh: grep -q '^default,team-d,2,2,0.000,0.000,0.000,1,50.000,0.000,0.033,1,1,0,0.033,-$' "$tmp/audit-rpb-60.csv"
exit: 0
--- stdout
cluster,cluster_queue,workloads,admitted,wait_p50_s,wait_p95_s,wait_max_s,pending,oldest_pending_s,borrowed_gpu_h,lent_gpu_h,preempted,preempting,breaches,used_gpu_h,cost
default,team-c,1,1,0.000,0.000,0.000,0,-,0.033,0.000,0,0,0,0.098,-
default,team-d,2,2,0.000,0.000,0.000,1,50.000,0.000,0.033,1,1,1,0.033,-
default,team-e,0,0,-,-,-,0,-,0.000,0.000,0,0,0,0.000,-
