# Names read from evidence are not checked as Kubernetes names, so a
# crafted one must not break the markdown report: a ClusterQueue named
# with a '|', HTML and a backtick is a code span with the pipe escaped
# (the table keeps its columns, nothing is rendered as HTML), a plain
# name stays as it is.  Before, the '|' split the cell and the <img> tag
# went into the page that renders the report.
setup: audit ingest --db "$tmp/arcn.db" tests/fixtures/audit/crafted-names.jsonl
args: audit report --db "$tmp/arcn.db" --format markdown
exit: 0
--- stdout
# Quotaflow audit report

Window: 1970-01-01T00:00:01.000Z to 1970-01-01T00:00:03.000Z

| cluster | cluster_queue | workloads | admitted | wait_p50_s | wait_p95_s | wait_max_s | pending | oldest_pending_s | borrowed_gpu_h | lent_gpu_h | preempted | preempting | breaches | used_gpu_h | cost |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| default | `a,"b"` | 1 | 1 | 0.000 | 0.000 | 0.000 | 0 | - | 0.000 | 0.000 | 0 | 0 | 0 | 0.000 | - |
| default | ``q\|<img src=x onerror=alert(1)>`x`` | 1 | 1 | 0.000 | 0.000 | 0.000 | 0 | - | 0.000 | 0.000 | 0 | 0 | 0 | 0.000 | - |
| default | team-a | 1 | 1 | 0.000 | 0.000 | 0.000 | 0 | - | 0.000 | 0.000 | 0 | 0 | 0 | 0.000 | - |
