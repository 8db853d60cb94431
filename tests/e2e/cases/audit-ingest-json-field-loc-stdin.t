# the same on standard input: the field's line:col, not the object's
args: audit ingest --db "$tmp/aijfls.db" -
stdin: tests/fixtures/audit/workloads-bad-fields.json
exit: 1
stderr-has: <stdin>:58:47: error: Workload team-s/s1: status.conditions[0].lastTransitionTime
stderr-has: <stdin>:119:51: error: Workload team-u/u1
stderr-has: <stdin>:169:41: error: ClusterQueue team-q: "nominalquota" is no field of it
