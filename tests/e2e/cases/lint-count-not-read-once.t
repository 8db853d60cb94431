# A GPU count that could not be read (a string, past the limit) keeps its
# tenant, account or flavour out of the pool's sums: a flavour's "gpus"
# given as text made it oversold (QF312 against 0), an account's made its
# tenants overcommit it (QF311 against 0)
setup-sh: mkdir -p "$tmp/nr" && cp examples/tenants/*.yaml "$tmp/nr/" && sed -i '0,/gpus: 128/s//gpus: "128"/; s/h100-ondemand: 40, h100-spot: 24/h100-ondemand: "40", h100-spot: 24/' "$tmp/nr/pool.yaml"
args: lint "$tmp/nr"
exit: 1
stdout-has: pool.yaml:12:13: error: "gpus" must be a whole number, not the string "128" [QF303]
stdout-has: pool.yaml:43:29: error: GPU counts must be whole numbers, not the string "40" [QF303]
stdout-not: QF311
stdout-not: QF312
