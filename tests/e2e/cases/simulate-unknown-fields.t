# simulate -f warns about each field Kueue's schema does not know (QF512),
# at its place with a did-you-mean, and simulates the object without it as
# the API server would: v1beta1's spec.admissionChecks on a v1beta2 queue
# requires no check (the job is admitted at once), a misspelt
# namespaceSelector leaves the queue selecting no namespace.  (Both were
# silent; the first was even read as if v1beta2 had it.)
args: simulate -f tests/fixtures/simulate/unknown-fields.yaml --submit tests/fixtures/simulate/submit.yaml
exit: 0
stdout-has: team-a/first: admitted at 0ms in ClusterQueue checked
stdout-has: team-b/too-big: pending (Misconfigured): workload namespace doesn't match ClusterQueue selector
--- stderr
tests/fixtures/simulate/unknown-fields.yaml:19:20: warning: unknown field "admissionChecks" ignored: the API server drops it (and kubectl apply, validating strictly by default, refuses the object) [QF512]
  at spec.admissionChecks
  hint: spec.admissionChecks is v1beta1's; in v1beta2 write admissionChecksStrategy: {admissionChecks: [{name: NAME}]}
tests/fixtures/simulate/unknown-fields.yaml:33:22: warning: unknown field "namespaceSelektor" ignored: the API server drops it (and kubectl apply, validating strictly by default, refuses the object) [QF512]
  at spec.namespaceSelektor
  hint: did you mean "namespaceSelector"?
