# a --manifests object the controller rejects: exit 1 (invalid input), and
# the database that run created is removed again
setup-sh: mkdir -p "$tmp/csi" && printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: q}\nspec: {resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: -1}]}]}]}\n' >"$tmp/csi/bad.yaml"
args: controller --db "$tmp/csi/c.db" --listen 127.0.0.1:0 --manifests "$tmp/csi/bad.yaml"
exit: 1
stderr-has: admission webhook "vclusterqueue.kb.io" denied the request: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Invalid value: "-1": must be greater than or equal to 0
after-sh: test "$(ls -A "$tmp/csi")" = bad.yaml
