# A GPU count past the limit (1000000) is one error: the tenant's committed
# was clamped to 1000000 and also made the account overcommitted (QF311),
# an account's contract made the flavour oversold (QF312)
setup-sh: mkdir -p "$tmp/lim" && cp examples/tenants/*.yaml "$tmp/lim/" && sed -i '0,/committed: 16/s//committed: 2000000/' "$tmp/lim/acme.yaml" && sed -i 's/h100-ondemand: 40, h100-spot: 24/h100-ondemand: 2000000, h100-spot: 24/' "$tmp/lim/pool.yaml"
args: validate "$tmp/lim"
exit: 1
stderr-has: acme.yaml:11:16: error: "committed" is 2000000; it must be between 0 and 1000000 [QF304]
stderr-has: pool.yaml:43:29: error: "h100-ondemand" is 2000000; it must be between 0 and 1000000 [QF304]
stderr-not: QF311
stderr-not: QF312
stderr-not: 1000000 GPUs
