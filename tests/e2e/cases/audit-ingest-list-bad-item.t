# one item of a List that is not JSON (a comma missing in item 2) is
# rejected alone, at jansson's line:col; the List's other items are
# stored.  A List under 64 MiB was read whole, so the one error lost all
# eleven events
args: audit ingest --db "$tmp/ailbi.db" tests/fixtures/audit/k8s-events-bad-item.txt
exit: 1
stderr-has: k8s-events-bad-item.txt:41:35: error: malformed JSON: '}' expected near '"creationTimestamp"' [QF701]
stdout-has: ingested 11 records: 10 added, 1 rejected
