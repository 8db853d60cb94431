# a YAML watch stream's events are stored while it runs: the writer
# below waits (up to 30 s) for the first event to be in the database
# before it sends the rest; held until the stream ended, it never was
setup-sh: f=tests/fixtures/audit/k8s-events-watch.yaml; { sed -n '1,30p' "$f"; i=0; until "$QF" audit query --db "$tmp/aiywl.db" "select count(*) from events" 2>/dev/null | grep -qx 1; do i=$((i+1)); [ $i -gt 150 ] && break; sleep 0.2; done; [ $i -le 150 ] && : >"$tmp/aiywl.seen"; sed -n '31,$p' "$f"; } | "$QF" audit ingest --db "$tmp/aiywl.db" --derive-interval 0 - >/dev/null
args: audit query --db "$tmp/aiywl.db" "select count(*) from events"
exit: 0
stdout-has: 4
after-sh: test -e "$tmp/aiywl.seen"
