# lint never drops a misspelled Kueue object: a kind, group or version one
# typo away from Kueue's is an error at the field, with a did-you-mean
args: lint tests/fixtures/validate/bad/kueue-kind-typo.yaml tests/fixtures/validate/bad/kueue-group-typo.yaml tests/fixtures/validate/bad/kueue-version-typo.yaml
exit: 1
stdout-has: tests/fixtures/validate/bad/kueue-kind-typo.yaml:3:7: error: Kueue has no kind "ClusterQueu" [QF117]
stdout-has: hint: did you mean "ClusterQueue"?
stdout-has: tests/fixtures/validate/bad/kueue-group-typo.yaml:2:13: error: no API group "kueue.x-k8.io" serves Kueue's kinds [QF117]
stdout-has: hint: did you mean apiVersion: kueue.x-k8s.io/v1beta2?
stdout-has: tests/fixtures/validate/bad/kueue-version-typo.yaml:2:13: error: Kueue serves no version "v1beta9" [QF117]
stdout-has: 3 errors, 0 warnings
