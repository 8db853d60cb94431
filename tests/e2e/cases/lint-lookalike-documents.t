# lint tells documents meant to be a Pool or Tenant as compile and validate
# do: a misspelled apiversion: key is QF307 with a did-you-mean (it was
# QF101, "not a Kubernetes object"), a Tenant of a group one typo away is
# an error, not an object skipped.
args: lint tests/fixtures/spec/lookalike-documents.yaml
exit: 1
stdout-has: lookalike-documents.yaml:15:1: error: "apiversion" is not a field; apiVersion is missing [QF307]
stdout-has: hint: did you mean "apiVersion"? (apiVersion: quotaflow.dev/v1alpha1)
stdout-has: lookalike-documents.yaml:19:13: error: apiVersion "quotaflow.io/v1alpha1" is not quotaflow's (kind Tenant)
stdout-has: lookalike-documents.yaml:27:1: error: Tenant document has no apiVersion [QF307]
stdout-not: 15:1: error: not a Kubernetes object
stdout-not: 27:1: error: not a Kubernetes object
