# A spec file whose name is not UTF-8 (Latin-1 ac\351me.yaml): its bytes
# become U+FFFD in each object's quotaflow.dev/source annotation, as in the
# json diagnostics; compile (and lint, diff, simulate of tenants, which
# compile) aborted, exit 134 and no output (jansson refuses the string)
setup-sh: rm -rf "$tmp/cnu" && mkdir -p "$tmp/cnu" && cp examples/tenants/*.yaml "$tmp/cnu/" && mv "$tmp/cnu/acme.yaml" "$tmp/cnu/ac$(printf '\351')me.yaml"
args: compile "$tmp/cnu" --stdout -q
exit: 0
stdout-has: quotaflow.dev/source: ac�me.yaml:
stdout-has: kind: ClusterQueue
