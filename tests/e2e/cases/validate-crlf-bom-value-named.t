# A new user's pool written on Windows (CRLF line ends and a byte order
# mark) with a typo in a count: the error is at the count's line and column
# and names what was written ("12x"); it said only "not a string"
setup-sh: mkdir -p "$tmp/cb" && printf '\357\273\277' >"$tmp/cb/pool.yaml" && sed 's/$/\r/; s/gpus: 128/gpus: 12x/' examples/tenants/pool.yaml >>"$tmp/cb/pool.yaml"
args: validate "$tmp/cb/pool.yaml"
exit: 1
stderr-has: cb/pool.yaml:12:13: error: "gpus" must be a whole number, not the string "12x" [QF303]
stderr-not: \r
