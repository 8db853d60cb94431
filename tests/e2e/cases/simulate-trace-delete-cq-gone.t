# A second delete of a ClusterQueue that went at the first one (no workload
# held its quota) finds nothing; the API server would answer NotFound, the
# trace reader cannot know it beforehand: a warning, and the run goes on.
args: simulate -f tests/controller/fixtures/setup.yaml --trace tests/fixtures/simulate/trace-delete-cq-twice.jsonl --until 3s
exit: 0
--- stderr
tests/fixtures/simulate/trace-delete-cq-twice.jsonl:2:1: warning: ClusterQueue cluster-queue no longer exists at 2000ms (it went when no workload held its quota any more): delete ignored [QF520]
  at object.metadata.name
