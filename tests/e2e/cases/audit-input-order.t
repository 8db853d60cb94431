# files of quotaflow events are read after the policy, whatever the order
# given (the derivation takes each event as it is stored); the views are
# the same as with the policy first
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/order.jsonl"
setup: audit ingest --db "$tmp/order-a.db" "$tmp/order.jsonl" tests/fixtures/audit/cluster.yaml
setup: audit ingest --db "$tmp/order-b.db" tests/fixtures/audit/cluster.yaml "$tmp/order.jsonl"
setup: audit export --db "$tmp/order-a.db" --out "$tmp/order-a"
setup: audit export --db "$tmp/order-b.db" --out "$tmp/order-b"
after-sh: for v in waits borrowing preemptions breaches; do cmp "$tmp/order-a/views/audit_$v.csv" "$tmp/order-b/views/audit_$v.csv" || exit 1; done
args: audit query --db "$tmp/order-a.db" "select id, format, added from inputs order by id"
--- stdout
id	format	added
1	manifests	9
2	quotaflow	22
