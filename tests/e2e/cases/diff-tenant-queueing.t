# a tenant whose queueing or fair-share weight alone changed is a changed
# tenant, named with the change (it was "tenants 0 changed", the change
# only visible as a ClusterQueue field)
setup-sh: rm -rf "$tmp/dtq" && mkdir -p "$tmp/dtq" && cp -r examples/tenants "$tmp/dtq/a" && cp -r examples/tenants "$tmp/dtq/b" && sed -i 's/  queueing: StrictFIFO/  queueing: BestEffortFIFO/' "$tmp/dtq/b/acme.yaml" && sed -i '0,/  fairShareWeight: auto/s//  fairShareWeight: 20/' "$tmp/dtq/b/acme.yaml"
args: diff "$tmp/dtq/a" "$tmp/dtq/b"
exit: 0
stdout-has: tenants 0 added, 0 removed, 2 changed
stdout-has:   ~ applied-ai: fairShareWeight auto -> 20
stdout-has:   ~ llm-pretrain: queueing StrictFIFO -> BestEffortFIFO
stdout-has:       spec.queueingStrategy: StrictFIFO -> BestEffortFIFO
