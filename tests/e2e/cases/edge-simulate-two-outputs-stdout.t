# --events and --summary both on standard output would print JSON lines
# followed by a JSON document, which parses as neither: refused before the run
args: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events - --summary /dev/stdout
exit: 2
stderr-has: /dev/stdout: error: names standard output for a second output (after -); their contents would be mixed [QF002]
--- stdout
