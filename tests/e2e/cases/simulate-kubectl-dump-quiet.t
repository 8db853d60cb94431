# A `kubectl get -o yaml` dump (a List; uid, resourceVersion, generation,
# creationTimestamp, finalizers, ownerReferences, managedFields, the
# last-applied annotation, status) has no unknown field: no QF512, no
# warning at all.
args: simulate -f tests/fixtures/simulate/kubectl-dump.yaml
exit: 0
stdout-has: cluster-queue
--- stderr
