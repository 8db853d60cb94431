# A link to .. committed inside an existing -o directory must not make
# compile delete what it points to (issue 13: it wiped the repository);
# the link is not ours, so it stays.
setup-sh: mkdir -p "$tmp/lp/repo/deploy/sub" && echo keep >"$tmp/lp/repo/README.md" && ln -s .. "$tmp/lp/repo/deploy/up" && ln -s ../.. "$tmp/lp/repo/deploy/sub/upup"
args: compile examples/tenants -o "$tmp/lp/repo/deploy"
exit: 0
after-sh: test -f "$tmp/lp/repo/README.md" && test -f "$tmp/lp/repo/deploy/kustomization.yaml" && test -L "$tmp/lp/repo/deploy/up" && test -L "$tmp/lp/repo/deploy/sub/upup"
