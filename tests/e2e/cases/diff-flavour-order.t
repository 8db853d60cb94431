# the same flavours in another order: Kueue tries them in list order, so
# the order is the change, said once, and the items themselves are equal
setup-sh: mkdir -p "$tmp/dord" && cp -r examples/tenants "$tmp/dord/base" && cp -r examples/tenants "$tmp/dord/head"
setup-sh: sed -i '0,/flavours: \[h100-spot, h100-ondemand\]/s//flavours: [h100-spot, h200, h100-ondemand]/' "$tmp/dord/base/acme.yaml"
setup-sh: sed -i '0,/flavours: \[h100-spot, h100-ondemand\]/s//flavours: [h100-spot, h100-ondemand, h200]/' "$tmp/dord/head/acme.yaml"
args: diff "$tmp/dord/base" "$tmp/dord/head"
stdout-has: spec.resourceGroups[0].flavors(order): ["h100-spot","h200","h100-ondemand"] -> ["h100-spot","h100-ondemand","h200"]
stdout-not: .name:
