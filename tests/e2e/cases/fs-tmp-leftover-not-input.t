# Temp files a killed run left are hidden: `compile .` never reads them.
setup-sh: mkdir -p "$tmp/tl/deploy/clusterqueue" && cp examples/tenants/*.yaml "$tmp/tl/" && printf 'kind: [broken\n' >"$tmp/tl/deploy/clusterqueue/.quotaflow-tmp-7-0"
args: compile "$tmp/tl" -o "$tmp/tl/deploy"
exit: 0
after-sh: test ! -e "$tmp/tl/deploy/clusterqueue/.quotaflow-tmp-7-0"
