# Its own files that are no longer produced are deleted (a removed
# tenant), foreign files are not; a killed run's temp file is cleaned.
setup: compile examples/tenants -o "$tmp/po"
setup-sh: echo mine >"$tmp/po/clusterqueue/README.md" && echo half >"$tmp/po/.quotaflow-tmp-1-0" && mkdir -p "$tmp/po-in" && cp examples/tenants/pool.yaml examples/tenants/acme.yaml "$tmp/po-in/"
args: compile "$tmp/po-in" -o "$tmp/po"
exit: 0
after-sh: test ! -e "$tmp/po/clusterqueue/globex-vision.yaml" && test -f "$tmp/po/clusterqueue/acme-research.yaml" && test -f "$tmp/po/clusterqueue/README.md" && test ! -e "$tmp/po/.quotaflow-tmp-1-0" && ! grep -q clusterqueue/globex "$tmp/po/.quotaflow-manifest"
