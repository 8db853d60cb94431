# An object Kueue's admission refuses (here its ClusterQueue webhook: a
# flavour in two resource groups) is said at its field, with validate's
# rule, and simulated as written.  It was simulated silently.
args: simulate -f tests/fixtures/simulate/cq-refused-by-kueue.yaml
exit: 0
stderr-has: cq-refused-by-kueue.yaml:20:13: warning: validate refuses this object: Duplicate value: "beta" (QF206); simulated as written [QF513]
stderr-has: at spec.resourceGroups[1].flavors[0].name
stdout-has: cluster-queue
