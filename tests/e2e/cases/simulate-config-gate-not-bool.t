# simulate: a feature gate set to something other than true or false is an error at its line (Kueue decodes featureGates as a map of booleans and would not start), where it silently meant the gate's default; featureGates that is not a mapping likewise.
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nfeatureGates:\n  PriorityBoost: "yes"\n' > "$tmp/cfg-gates.yaml"; printf 'apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nfeatureGates: [PriorityBoost]\n' > "$tmp/cfg-list.yaml"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/cfg-gates.yaml" --submit examples/simulate/jobs.yaml
exit: 1
stderr-has: cfg-gates.yaml:4:18: error: PriorityBoost must be true or false: Kueue decodes featureGates as a map of booleans and would not start
after-sh: "$QF" simulate -f examples/simulate/cluster.yaml -f "$tmp/cfg-list.yaml" --submit examples/simulate/jobs.yaml 2>&1 | grep -q 'cfg-list.yaml:3:15: error: featureGates must be a mapping of gate names to true or false'
