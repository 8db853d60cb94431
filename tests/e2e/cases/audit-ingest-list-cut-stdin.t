# a List on standard input that stops between two items (kubectl killed
# after writing one; the fixture is k8s-events.json's first 62 lines, .txt as the fixtures that do not load are): the items before are stored and the cut is named at
# the end of the input, saying what was expected there
args: audit ingest --db "$tmp/ailcs.db" -
stdin: tests/fixtures/audit/k8s-events-cut.txt
exit: 1
stderr-has: <stdin>:63:1: error: the list is cut short here: the input ends where item 3 after the comma is expected [QF701]
stdout-has: ingested 3 records: 2 added, 1 rejected
