# The example validates against the upstream CRDs, in both API versions.
args: compile examples/tenants --stdout --kueue-api v1beta1 --crds $SHARED/kueue-crds
needs: shared
exit: 0
stdout-has: apiVersion: kueue.x-k8s.io/v1beta1
