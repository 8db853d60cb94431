# An account's GPU count or a price written too small for YAML to read
# (64.0e-400, which YAML reads as 0) is an error at its field: the
# account's contract read as 0 and its tenants as overcommitting it
# (QF311), and the price as 0, without a word about what was written
setup-sh: mkdir -p "$tmp/ua" && cp examples/tenants/*.yaml "$tmp/ua/" && sed -i 's/h100-ondemand: 64, h100-spot: 32/h100-ondemand: 64.0e-400, h100-spot: 32/; s/pricePerGpuHour: 3.10/pricePerGpuHour: 3.10e-400/' "$tmp/ua/pool.yaml"
args: compile "$tmp/ua" --stdout -q
exit: 1
stderr-has: ua/pool.yaml:41:29: error: "h100-ondemand" is 64.0e-400, a number too small for YAML to read: it reads 0 [QF303]
stderr-has: ua/pool.yaml:18:24: error: "pricePerGpuHour" is 3.10e-400, a number too small for YAML to read: it reads 0 [QF303]
stderr-not: QF311
