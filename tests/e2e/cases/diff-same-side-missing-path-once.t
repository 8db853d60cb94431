# diff HEAD HEAD --path with a typo: the one missing path is said once, not
# once per side (the same error printed twice)
setup-sh: rm -rf "$tmp/dsm" && mkdir -p "$tmp/dsm/tenants" && cp examples/tenants/*.yaml "$tmp/dsm/tenants/" && cd "$tmp/dsm" && git init -q && git add . && git -c user.email=a@b -c user.name=a commit -qm one
args: diff --repo "$tmp/dsm" HEAD HEAD --path tenant
exit: 2
stderr-has: HEAD:tenant: error: no such file or folder in revision HEAD [QF023]
after-sh: test "$(grep -c 'error: no such file or folder' "$tmp/err")" = 1
