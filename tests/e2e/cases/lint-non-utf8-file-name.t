# lint compiles the tenants: a spec file whose name is not UTF-8 aborted it
# (exit 134, nothing on stdout); its findings are reported as for any file
setup-sh: rm -rf "$tmp/lnu" && mkdir -p "$tmp/lnu" && cp examples/tenants/*.yaml "$tmp/lnu/" && mv "$tmp/lnu/acme.yaml" "$tmp/lnu/ac$(printf '\351')me.yaml"
args: lint "$tmp/lnu" --format json
exit: 0
stdout-has: "counts": {
stdout-has: me.yaml",
