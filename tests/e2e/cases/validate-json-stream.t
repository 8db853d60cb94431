# A file of JSON objects one after another (`kubectl get ... -o json` run
# after run into one file, or one object per line) loads as kubectl reads
# it: each object is a document.
args: validate tests/fixtures/doc/stream/cluster.json tests/fixtures/doc/stream/jobs.json
exit: 0
stdout-has: 12 objects, 6 valid, 0 invalid, 6 skipped
stderr-not: error
