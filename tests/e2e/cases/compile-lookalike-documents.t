# Documents meant to be ours are errors with a did-you-mean, never skipped
# (a skipped Tenant would drop its ClusterQueue and a pruning GitOps tool
# would delete it); Kueue objects are one error, not one per object.
args: compile tests/fixtures/spec/lookalike-documents.yaml --stdout
exit: 1
stderr-has: lookalike-documents.yaml:15:1: error: "apiversion" is not a field; apiVersion is missing [QF307]
stderr-has: hint: did you mean "apiVersion"? (apiVersion: quotaflow.dev/v1alpha1)
stderr-has: lookalike-documents.yaml:19:13: error: apiVersion "quotaflow.io/v1alpha1" is not quotaflow's (kind Tenant)
stderr-has: lookalike-documents.yaml:27:1: error: Tenant document has no apiVersion [QF307]
stderr-has: hint: did you mean kind: Tenant?
stderr-has: lookalike-documents.yaml:34:1: error: 2 Kueue objects (the first is ClusterQueue cq1)
stderr-has: hint: check Kueue manifests with quotaflow validate
stderr-not: LocalQueue
stderr-not: warning
--- stdout
