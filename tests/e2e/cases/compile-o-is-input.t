# -o naming the spec's own folder: compile never reads its output folder,
# so every input is left out; said so, not "no *.yaml files found" next to
# four of them, and nothing is written
setup-sh: rm -rf "$tmp/oin" && cp -r examples/tenants "$tmp/oin"
args: compile "$tmp/oin" -o "$tmp/oin"
exit: 1
stderr-has: error: every input file (4) is in
stderr-has: the output directory, which compile never reads from [QF307]
stderr-has: hint: keep the spec and the output apart
stderr-not: no *.yaml
after-sh: test ! -e "$tmp/oin/.quotaflow-manifest" && test ! -e "$tmp/oin/clusterqueue"
