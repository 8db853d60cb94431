# D11 from an audit log: a patch stops team-s (stopPolicy Hold) at 09:00:05, Kueue's status write says Active False Stopped from 09:00:06, and a patch at 09:02:30 runs it again, whose response still carries that stale condition: team-s is inactive (Stopped) from 09:00:05 to 09:02:30, not to the end.  s1 (1 GPU), queued in team-s at 09:01:00 and admitted at 09:02:40, waited 100 s: a breach (0 + 1 <= 4, D8).  team-u's status writes alone (clusterqueues/status: AdmissionCheckNotFound at 09:00:30, Ready at 09:01:30; one at level Metadata says nothing) make it inactive for 60 s, 50 of them in the window; status writes are no policy changes
setup: audit ingest --db "$tmp/audit-is.db" tests/fixtures/audit/inactive/stopped.yaml tests/fixtures/audit/inactive/stopped-audit-log.jsonl tests/fixtures/audit/inactive/stopped-workloads.yaml
args: audit report --db "$tmp/audit-is.db" --format markdown
exit: 0
after-sh: "$QF" audit query --db "$tmp/audit-is.db" "select workload, queued_at, admitted_at, wait_seconds from audit_breaches" | grep -Fx "$(printf 'team-s/s1\t2026-06-12T09:01:00.000Z\t2026-06-12T09:02:40.000Z\t100.0')"
after-sh: test "$("$QF" audit query --db "$tmp/audit-is.db" "select count(*) from audit_policy_changes where verb = 'update'")" = "$(printf 'count(*)\n0')"
--- stdout
# Quotaflow audit report

Window: 2026-06-12T09:00:40.000Z to 2026-06-12T09:03:00.000Z

| cluster | cluster_queue | workloads | admitted | wait_p50_s | wait_p95_s | wait_max_s | pending | oldest_pending_s | borrowed_gpu_h | lent_gpu_h | preempted | preempting | breaches | used_gpu_h | cost |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| default | team-s | 1 | 1 | 100.000 | 100.000 | 100.000 | 0 | - | 0.000 | 0.000 | 0 | 0 | 1 | 0.006 | - |
| default | team-u | 1 | 1 | 50.000 | 50.000 | 50.000 | 0 | - | 0.000 | 0.000 | 0 | 0 | 0 | 0.025 | - |

## Inactive ClusterQueues

| cluster | cluster_queue | reason | missing_flavors | from | to | inactive_s |
| --- | --- | --- | --- | --- | --- | --- |
| default | team-s | Stopped | - | 2026-06-12T09:00:05.000Z | 2026-06-12T09:02:30.000Z | 110.000 |
| default | team-u | AdmissionCheckNotFound | - | 2026-06-12T09:00:30.000Z | 2026-06-12T09:01:30.000Z | 50.000 |
