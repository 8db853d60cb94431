# a result that cannot be written (a full disk) says why, exit 2
setup: audit ingest --db "$tmp/aqd.db" tests/fixtures/audit/cluster.yaml
setup-sh: "$QF" audit query --db "$tmp/aqd.db" "select * from quotas" >/dev/full 2>"$tmp/aqd.err"; echo $? >"$tmp/aqd.rc"
args: audit query --db "$tmp/aqd.db" "select 1"
exit: 0
after-sh: test "$(cat "$tmp/aqd.rc")" = 2 && grep -q "cannot write the result: No space left on device" "$tmp/aqd.err"
