# Every upstream Kueue example validates with the built-in schemas but one:
# admin/minimal-cq.yaml names in onFlavors a flavor its ClusterQueue does
# not have, which Kueue's webhook refuses on create (QF216).
args: validate $SHARED/kueue-examples
needs: shared
exit: 1
stdout-has: 70 objects, 53 valid, 1 invalid, 16 skipped
stderr-has: admin_minimal-cq.yaml:10:19: error: Unsupported value: "default-flavor" [QF216]
