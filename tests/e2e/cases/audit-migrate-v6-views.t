# The version 6 database of audit-migrate-v6, migrated, then given the simulator's events again (nothing added) and a later event (stored after its rows): the same events and views as a new database given the same inputs (ids aside: the new one numbers the simulator's events in time order), and the chain still holds
setup-sh: cp tests/fixtures/audit/v6.db "$tmp/v6.db"
setup-sh: $QF simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/ev.jsonl" >/dev/null
setup-sh: printf '%s\n' '{"time_ms":900000,"type":"Normal","reason":"Finished","workload":"ns-late/late","clusterQueue":"team-a","message":"late"}' >"$tmp/late.jsonl"
setup: audit ingest --db "$tmp/v6.db" "$tmp/ev.jsonl" "$tmp/late.jsonl"
setup: audit ingest --db "$tmp/new.db" tests/fixtures/audit/cluster.yaml "$tmp/ev.jsonl" tests/fixtures/audit/k8s-events.json tests/fixtures/audit/audit-log.jsonl "$tmp/late.jsonl"
setup-sh: for v in audit_waits audit_borrowing audit_preemptions audit_breaches audit_policy_changes "(select cluster, dkey, source, time_ms, last_ms, count, type, reason, workload, uid, cluster_queue, message, preemptor, preemption_reason, detail from events order by time_ms, dkey)"; do $QF audit query --db "$tmp/v6.db" "select * from $v" >"$tmp/a" && $QF audit query --db "$tmp/new.db" "select * from $v" >"$tmp/b" && cmp "$tmp/a" "$tmp/b" || exit 1; done
args: audit verify --db "$tmp/v6.db"
exit: 0
stdout-has: verified: database: 34 events, chain head
