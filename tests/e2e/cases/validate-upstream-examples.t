# Every upstream Kueue example validates with the built-in schemas; the
# onFlavors that Kueue's webhook refuses is a warning, not a failure.
args: validate $SHARED/kueue-examples
needs: shared
exit: 0
stdout-has: 70 objects, 51 valid, 0 invalid, 19 skipped
stderr-has: admin_minimal-cq.yaml:10:19: warning: Unsupported value: "default-flavor": not a flavor of this ClusterQueue [QF216]
stderr-not: error:
