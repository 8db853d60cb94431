# kubectl describe output has relative ages only: rejected with a reason (QF702)
args: audit ingest --db "$tmp/audit-desc.db" tests/fixtures/audit/describe-events.txt
exit: 1
stderr-has: not a Kubernetes object (apiVersion and kind missing)
stderr-has: [QF702]
stdout-has: ingested 1 records: 0 added, 1 rejected
