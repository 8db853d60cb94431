# a change of a flavour's price alone (no Kueue object holds it; the audit's
# cost reports do) is named on the flavour's line, in the markdown table and
# the JSON; it was nowhere, the diff read as a change of nothing
setup-sh: rm -rf "$tmp/dpr" && mkdir -p "$tmp/dpr" && cp -r examples/tenants "$tmp/dpr/a" && cp -r examples/tenants "$tmp/dpr/b" && sed -i 's/pricePerGpuHour: 3.10/pricePerGpuHour: 9.99/' "$tmp/dpr/b/pool.yaml"
args: diff "$tmp/dpr/a" "$tmp/dpr/b"
exit: 0
stdout-has: tenants 0 added, 0 removed, 0 changed; Kueue objects 0 added, 0 removed, 0 changed
stdout-has:   h100-ondemand: committed 92, headroom 36, price per GPU-hour 3.1 -> 9.99
stdout-has:   h100-spot: committed 32, headroom 32
stdout-not: h100-spot: committed 32, headroom 32, price
after-sh: "$QF" diff "$tmp/dpr/a" "$tmp/dpr/b" --format markdown | grep -qF '| h100-ondemand | 128 | 92 | 36 | 3.1 → 9.99 |' && "$QF" diff "$tmp/dpr/a" "$tmp/dpr/b" --format json | grep -q '"after": 9.99'
