# simulate -f and --submit read JSON streams (a cluster dumped with
# kubectl get -o json per kind, Jobs one per line) exactly as the same
# objects in YAML.
setup-sh: "$QF" simulate -f examples/simulate/cluster.yaml --submit examples/simulate/jobs.yaml >"$tmp/sim-yaml.out"
args: simulate -f tests/fixtures/doc/stream/cluster.json --submit tests/fixtures/doc/stream/jobs.json
exit: 0
stdout-has: team-a/job-train-90800: admitted at 0ms in ClusterQueue team-a
after-sh: cmp "$tmp/out" "$tmp/sim-yaml.out"
