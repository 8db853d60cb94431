# The same examples against the upstream CRDs: Topology has a schema too;
# its CEL rules are notes (not evaluated).  admin/minimal-cq.yaml is refused
# as with the built-in schemas (QF216: Kueue's webhook refuses it).
args: validate --crds $SHARED/kueue-crds $SHARED/kueue-examples
needs: shared
exit: 1
stdout-has: 70 objects, 56 valid, 1 invalid, 13 skipped
stderr-has: note: CEL rule not evaluated: must be unique [QF115]
stderr-has: admin_minimal-cq.yaml:10:19: error: Unsupported value: "default-flavor" [QF216]
