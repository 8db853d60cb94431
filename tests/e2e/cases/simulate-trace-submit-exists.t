# A trace submit creates its Job and Workload: at 900ms big still exists
# (finished, not deleted), so the API server would refuse it; after the
# delete at 1000ms the same name is free again (line 5 is fine).  It was
# taken silently, a second workload of the same name.
args: simulate -f examples/simulate/cluster.yaml --trace tests/fixtures/simulate/trace-submit-twice.jsonl
exit: 1
--- stdout
--- stderr
tests/fixtures/simulate/trace-submit-twice.jsonl:3:105: error: Workload team-a/job-big-aa03b of Job big already exists at 900ms (from -f, --submit or an earlier line): the API server refuses to create it again (AlreadyExists) [QF520]
  at object.metadata.name
