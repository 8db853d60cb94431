# an item rejected inside a List is kept in `rejected` with its own compact text (the
# item, not the whole List), whichever check rejects it: a missing field (QF703) or a
# misnamed version (QF117); the dump is made only for a rejected item
setup-sh: $QF audit ingest --db "$tmp/ailr.db" tests/fixtures/audit/misnamed/events-list.json; test $? = 1
args: audit query --db "$tmp/ailr.db" "select line, raw from rejected order by line"
exit: 0
--- stdout
line	raw
24	{"apiVersion":"v1","kind":"Event","metadata":{"name":"e1","namespace":"team-a","uid":"u1"},"reason":"Pending","message":"x [a] {b}","firstTimestamp":"2026-06-12T09:00:01Z","lastTimestamp":"2026-06-12T09:00:01Z","count":1}
57	{"apiVersion":"kueue.x-k8s.io/v1beta9","kind":"ClusterQueue","metadata":{"name":"q"}}
