# KRM function: Pool/Tenant items become Kueue objects, others pass through,
# problems become results attached to the item and its file.
args: compile --krm
stdin: tests/fixtures/compile/resourcelist.yaml
exit: 0
stdout-has: kind: ResourceList
stdout-has: name: passes-through
stdout-has: kind: ClusterQueue
stdout-has: severity: warning
stdout-has:     path: team-a.yaml
stderr-has: [QF314]
