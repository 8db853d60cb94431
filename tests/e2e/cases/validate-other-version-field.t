# A field of the other Kueue API version (v1beta1's spec.cohort on a
# v1beta2 ClusterQueue) is an unknown field whose hint names what to write.
args: validate tests/fixtures/validate/bad/cq-v1beta1-cohort-field.yaml
exit: 1
stderr-has: cq-v1beta1-cohort-field.yaml:7:11: error: unknown field "cohort" [QF102]
stderr-has: hint: spec.cohort is v1beta1's; v1beta2 calls it cohortName
