# Workloads are validated by the built-in Workload schema: a typo and the
# other version's priority fields are unknown fields (the latter with what
# to write instead); v1beta1's podSets[].count is required but defaulted,
# so leaving it out is no error.
args: validate tests/fixtures/validate/workload/v1beta1-fields.yaml
exit: 1
stdout-has: 2 objects, 0 valid, 2 invalid, 0 skipped
stderr-has: v1beta1-fields.yaml:10:22: error: unknown field "priorityClassName" [QF102]
stderr-has: hint: spec.priorityClassName is v1beta1's; in v1beta2 write priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: NAME}
stderr-has: v1beta1-fields.yaml:11:24: error: unknown field "priorityClassSource" [QF102]
stderr-has: v1beta1-fields.yaml:15:13: error: unknown field "countt" [QF102]
stderr-has: hint: did you mean "count"?
stderr-has: v1beta1-fields.yaml:30:5: error: unknown field "priorityClassRef" [QF102]
stderr-has: hint: spec.priorityClassRef is v1beta2's; v1beta1 writes priorityClassName and priorityClassSource
stderr-not: QF103
