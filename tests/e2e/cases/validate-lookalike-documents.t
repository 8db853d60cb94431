# validate reports documents meant to be ours with compile's did-you-mean.
args: validate tests/fixtures/spec/lookalike-documents.yaml
exit: 1
stderr-has: lookalike-documents.yaml:15:1: error: "apiversion" is not a field; apiVersion is missing [QF307]
stderr-has: lookalike-documents.yaml:19:13: error: apiVersion "quotaflow.io/v1alpha1" is not quotaflow's (kind Tenant)
stderr-has: lookalike-documents.yaml:27:1: error: Tenant document has no apiVersion [QF307]
stderr-has: lookalike-documents.yaml:31:7: error: unknown quotaflow document quotaflow.dev/v1alpha1 Tenat
stdout-has: 9 objects,
