# nominalQuota written as a YAML number (nominalQuota: 4, as Kubernetes
# takes it) is a quota like "4": every quota row was dropped unsaid
# (exit 0, "9 added", no quota at all)
setup-sh: sed 's/nominalQuota: "4"/nominalQuota: 4/' tests/fixtures/audit/cluster.yaml >"$tmp/aiqn.yaml"
args: audit ingest --db "$tmp/aiqn.db" "$tmp/aiqn.yaml"
exit: 0
stdout-has: ingested 9 records: 9 added, 0 rejected
after-sh: test "$(sqlite3 "$tmp/aiqn.db" 'select count(*) || " " || sum(nominal_milli) from quotas')" = "4 16000"
