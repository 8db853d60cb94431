# simulate -f with a misspelled ClusterQueue: an error (it used to be
# "ignoring object of kind ClusterQueu" and a simulation without the queue)
args: simulate -f tests/fixtures/validate/bad/kueue-kind-typo.yaml -f tests/fixtures/audit/cluster.yaml --cycles 1
exit: 1
stderr-has: tests/fixtures/validate/bad/kueue-kind-typo.yaml:3:7: error: Kueue has no kind "ClusterQueu" [QF117]
