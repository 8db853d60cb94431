# simulate -f with a ResourceFlavor of a version Kueue never served: an
# error (it was read as if valid)
args: simulate -f tests/fixtures/validate/bad/kueue-version-typo.yaml -f tests/fixtures/audit/cluster.yaml --cycles 1
exit: 1
stderr-has: tests/fixtures/validate/bad/kueue-version-typo.yaml:2:13: error: Kueue serves no version "v1beta9" [QF117]
