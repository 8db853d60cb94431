# A second trace delete of a ClusterQueue still terminating (job1 holds its
# quota) is accepted, as the API server accepts a DELETE of an object that
# has a deletionTimestamp: it stays terminating, its deletionTimestamp that
# of the first delete.  (It said "no ClusterQueue cluster-queue exists".)
args: simulate -f tests/controller/fixtures/setup.yaml -f tests/controller/fixtures/job1.yaml --trace tests/fixtures/simulate/trace-delete-cq-twice.jsonl --until 3s --dump-state "$tmp/del-twice.json"
exit: 0
after-sh: grep -q '"deletionTimestamp": "1970-01-01T00:00:01Z"' "$tmp/del-twice.json"
--- stderr
