# an item rejected inside a pretty-printed List (kubectl get events -o
# json) is named at the line where that item starts, not at the List's
# first line (every item error said 1:1)
args: audit ingest --db "$tmp/aili.db" tests/fixtures/audit/misnamed/events-list.json
exit: 1
stderr-has: misnamed/events-list.json:24:5: error: Event without reason or involved object
stderr-has: misnamed/events-list.json:57:1: error: Kueue serves no version "v1beta9" [QF117]
stdout-has: ingested 4 records: 2 added, 2 rejected
