# A --path a revision does not hold hints at the near miss in its folder
# (tenant for tenants, tenants/pool.yml for tenants/pool.yaml), in diff
# and lint --git-range alike; it said only where paths start from
setup-sh: rm -rf "$tmp/dpn" && mkdir -p "$tmp/dpn/tenants" && cp examples/tenants/*.yaml "$tmp/dpn/tenants/" && cd "$tmp/dpn" && git init -q && git add . && git -c user.email=a@b -c user.name=a commit -qm one
args: diff --repo "$tmp/dpn" HEAD HEAD --path tenant
exit: 2
stderr-has: HEAD:tenant: error: no such file or folder in revision HEAD [QF023]
stderr-has: hint: did you mean tenants? (paths start from the current folder inside the work tree, else from the repository's top folder)
after-sh: "$QF" lint --repo "$tmp/dpn" --git-range HEAD..HEAD tenants/pool.yml 2>&1 | grep -qF 'hint: did you mean tenants/pool.yaml?'
