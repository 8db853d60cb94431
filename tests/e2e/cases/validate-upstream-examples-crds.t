# The same examples against the upstream CRDs: AdmissionCheck and Topology
# now have schemas too; Topology's CEL rules are notes (not evaluated).
args: validate --crds $SHARED/kueue-crds $SHARED/kueue-examples
needs: shared
exit: 0
stdout-has: 70 objects, 57 valid, 0 invalid, 13 skipped
stderr-has: note: CEL rule not evaluated: must be unique [QF115]
stderr-not: error:
