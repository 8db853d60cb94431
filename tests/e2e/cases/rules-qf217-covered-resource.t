# QF217: a coveredResources entry that is not a resource name.
setup-sh: mkdir -p "$tmp/q" && printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: q\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: ["nvidia com/gpu"]\n    flavors:\n    - name: f\n      resources:\n      - name: "nvidia com/gpu"\n        nominalQuota: 1\n' >"$tmp/q/cq.yaml"
args: validate "$tmp/q/cq.yaml"
exit: 1
stderr-has: [QF217]
