# A key given twice on a trace line is an error at the second (QF011), as
# in every other input; the line was read with the last value (a request
# of 8 cpus written after 1, a finish at 50ms written after 100ms).  The
# positions inside messages are the file's (line 2's "first defined at
# 2:2", line 3's "at 3:44"), not the line's own (they said 1:2 and 1:44),
# and line 4's unknown field is told at line 4.
args: simulate -f examples/simulate/cluster.yaml --trace tests/fixtures/simulate/trace-duplicate-key.jsonl
exit: 1
--- stdout
--- stderr
tests/fixtures/simulate/trace-duplicate-key.jsonl:1:300: error: duplicate key "cpu" (first defined at 1:288) [QF011]
  hint: a key may appear only once in a mapping; remove or merge one of them
tests/fixtures/simulate/trace-duplicate-key.jsonl:2:58: error: duplicate key "at_ms" (first defined at 2:2) [QF011]
  hint: a key may appear only once in a mapping; remove or merge one of them
tests/fixtures/simulate/trace-duplicate-key.jsonl:3:57: error: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at 3:44) [QF010]
  hint: expected well-formed YAML 1.1 or JSON
tests/fixtures/simulate/trace-duplicate-key.jsonl:4:57: error: unknown field wrkload [QF520]
  at wrkload
  hint: did you mean workload?
