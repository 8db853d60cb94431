# A file named .YAML (or .Yml, .JSON) in a spec folder is not read, as
# kubectl and Argo CD do not read it, but a note says so: its tenants were
# left out without a word (compile wrote 5 ClusterQueues of 8)
setup-sh: rm -rf "$tmp/oc" && mkdir -p "$tmp/oc" && cp examples/tenants/*.yaml "$tmp/oc/" && mv "$tmp/oc/globex.yaml" "$tmp/oc/globex.YAML"
args: compile "$tmp/oc" --stdout
exit: 0
stderr-has: /oc/globex.YAML: note: skipped: only names ending in .yaml, .yml or .json, in lower case, are read (as kubectl and Argo CD read them); rename it if it is a manifest [QF005]
