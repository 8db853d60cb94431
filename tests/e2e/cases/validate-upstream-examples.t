# Every upstream Kueue example validates with the built-in schemas; the
# onFlavors of admin/minimal-cq.yaml, which Kueue's webhook refuses on
# create (a flavour its ClusterQueue does not have), is a warning (QF216),
# not a failure.
args: validate $SHARED/kueue-examples
needs: shared
exit: 0
stdout-has: 70 objects, 54 valid, 0 invalid, 16 skipped
stderr-has: admin_minimal-cq.yaml:10:19: warning: Unsupported value: "default-flavor" [QF216]
stderr-not: error:
