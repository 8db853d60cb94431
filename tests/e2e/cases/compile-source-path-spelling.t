# quotaflow.dev/source names each file relative to the input root (the
# deepest folder holding every input), so the output is the same whatever
# the spelling of the path (./core/../examples/tenants/, an absolute one)
# and the order of the files: it held the path as typed
# ("core/../examples/tenants/acme.yaml:2"), and the output differed
setup-sh: mkdir -p "$tmp/sp" && "$QF" compile examples/tenants --stdout -q >"$tmp/sp/want.yaml" && (cd tests && "$QF" compile ../examples/tenants/initech.yaml ./../examples//tenants/globex.yaml ../examples/tenants/acme.yaml "$PWD/../examples/tenants/pool.yaml" --stdout -q) >"$tmp/sp/files.yaml"
args: compile ./core/../examples/tenants/ --stdout -q
exit: 0
stdout-has: quotaflow.dev/source: acme.yaml:2
stdout-not: examples/
after-sh: cmp "$tmp/out" "$tmp/sp/want.yaml" && cmp "$tmp/out" "$tmp/sp/files.yaml"
