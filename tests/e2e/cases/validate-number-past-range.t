# An unquoted number past what YAML reads as one (1e400, a hex integer past
# 64 bits) is kept as a string by YAML, as kubectl keeps it: the error says
# the number is past the range, where it said "not a string" or "got string"
setup-sh: mkdir -p "$tmp/big" && cp examples/tenants/*.yaml "$tmp/big/" && sed -i '0,/committed: 16/s//committed: 1e400/' "$tmp/big/acme.yaml" && sed 's/count: 1$/count: 0x1_0000_0000_0000_0000/; s/+24:00/Z/' tests/fixtures/simulate/offset-out-of-range.yaml >"$tmp/big-wl.yaml"
args: validate "$tmp/big" "$tmp/big-wl.yaml"
exit: 1
stderr-has: acme.yaml:11:16: error: "committed" must be a whole number, not 1e400, a number past the 64-bit range [QF303]
stderr-has: big-wl.yaml:11:12: error: wrong type: 0x1_0000_0000_0000_0000 is past the range of a number (a 64-bit float or integer), so YAML reads it as the string "0x1_0000_0000_0000_0000" [QF104]
stderr-not: not a string
stderr-not: got string
