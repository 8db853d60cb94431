# Strict unknown-field checking with the cluster's CRDs, with a did-you-mean.
args: validate --crds $SHARED/kueue-crds tests/fixtures/validate/bad/cq-unknown-field.yaml
needs: shared
exit: 1
stderr-has: cq-unknown-field.yaml:7:14: error: unknown field "cohrtName" [QF102]
stderr-has:   hint: did you mean "cohortName"?
stdout-has: 1 object, 0 valid, 1 invalid, 0 skipped
