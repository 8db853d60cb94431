# QF207: more than 256 flavours in one ClusterQueue.
setup-sh: mkdir -p "$tmp/q" && awk 'BEGIN { printf "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: q\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n"; for (g = 0; g < 5; g++) { printf "  - coveredResources: [r%d]\n    flavors:\n", g; for (f = 0; f < 60; f++) printf "    - name: f%d-%d\n      resources:\n      - name: r%d\n        nominalQuota: 1\n", g, f, g } }' >"$tmp/q/cq.yaml"
args: validate "$tmp/q/cq.yaml"
exit: 1
stderr-has: [QF207]
