# The same examples against the upstream CRDs: Topology has a schema too;
# its CEL rules are notes (not evaluated).  admin/minimal-cq.yaml's
# onFlavors is a warning as with the built-in schemas (QF216).
args: validate --crds $SHARED/kueue-crds $SHARED/kueue-examples
needs: shared
exit: 0
stdout-has: 70 objects, 57 valid, 0 invalid, 13 skipped
stderr-has: note: CEL rule not evaluated: must be unique [QF115]
stderr-has: admin_minimal-cq.yaml:10:19: warning: Unsupported value: "default-flavor" [QF216]
stderr-not: error:
