# a watch stream that stops inside an object (kubectl killed mid-write):
# the objects before are stored and the cut one is named where it starts,
# saying where the input ends; it said only "malformed JSON: premature end
# of input" at the end
setup-sh: head -c 3000 tests/fixtures/audit/k8s-events-watch.stream >"$tmp/aicv.json"
args: audit ingest --db "$tmp/aicv.db" "$tmp/aicv.json"
exit: 1
stderr-has: aicv.json:88:1: error: the input ends at line 113, column 38, inside this value, which starts here and is not stored: its closing `}` is missing [QF701]
stdout-has: ingested 4 records: 2 added, 1 rejected
