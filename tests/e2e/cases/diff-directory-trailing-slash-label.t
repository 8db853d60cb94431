# a folder side written with a trailing slash (as shell completion writes
# it) names its whole-side problem DIR/SUBDIR with one slash: "a//tenants"
setup-sh: rm -rf "$tmp/dts" && mkdir -p "$tmp/dts/a/tenants" && cp -r examples/tenants "$tmp/dts/b"
args: diff "$tmp/dts/a/" "$tmp/dts/b" --path tenants
exit: 1
stderr-has: /dts/a/tenants: error: no *.yaml, *.yml or *.json files found [QF307]
stderr-not: a//tenants
