# fairShareWeight past the 64-bit range is an error at its field; compile
# wrote weight: 10e399, which Kueue cannot count
setup-sh: mkdir -p "$tmp/w" && cp examples/tenants/*.yaml "$tmp/w/" && sed -i 's/fairShareWeight: 2/fairShareWeight: 1e400/' "$tmp/w/acme.yaml"
args: compile "$tmp/w" --stdout
exit: 1
stderr-has: w/acme.yaml:66:20: error: fairShareWeight "1e400" is past the 64-bit range: Kueue reads a weight as a 64-bit count of thousandths, at most 9223372036854775.807 [QF304]
stdout-not: 10e399
