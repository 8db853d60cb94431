# simulate --events naming one of its -f files (here inside a -f folder)
# is refused before the run: the cluster file is never overwritten
setup-sh: mkdir -p "$tmp/soi/in" && cp tests/fixtures/audit/cluster.yaml "$tmp/soi/in/"
args: simulate -f "$tmp/soi/in" --trace tests/fixtures/audit/trace.jsonl --events "$tmp/soi/in/cluster.yaml"
exit: 2
stderr-has: /soi/in/cluster.yaml: error: is also an input (
after-sh: cmp "$tmp/soi/in/cluster.yaml" tests/fixtures/audit/cluster.yaml
