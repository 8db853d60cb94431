# a flavour added in the middle of a queue's list is one added item,
# matched by name (Kueue keys flavors and resources by name), not a rename
# of the item at its index and a cascade after it
setup-sh: mkdir -p "$tmp/dkey" && cp -r examples/tenants "$tmp/dkey/base" && cp -r examples/tenants "$tmp/dkey/head"
setup-sh: sed -i '0,/flavours: \[h100-spot, h100-ondemand\]/s//flavours: [h100-spot, h200, h100-ondemand]/' "$tmp/dkey/head/acme.yaml"
args: diff "$tmp/dkey/base" "$tmp/dkey/head"
stdout-has:   ~ ClusterQueue applied-ai
stdout-has:       spec.resourceGroups[0].flavors[h200]: (none) -> {"name":"h200","resources":[{"name":"nvidia.com/gpu","nominalQuota":"0","borrowingLimit":"32"}
stdout-not: flavors[1]
stdout-not: (order)
