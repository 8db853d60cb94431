# lint --git-range notes a committed .YML file it does not read (as a
# folder's walk does), so its tenants are not left out without a word
setup-sh: rm -rf "$tmp/ocg" && mkdir -p "$tmp/ocg/tenants" && cp examples/tenants/*.yaml "$tmp/ocg/tenants/" && cd "$tmp/ocg" && git init -q && git add . && git -c user.email=a@b -c user.name=a commit -qm one && git mv tenants/globex.yaml tenants/globex.YML && git -c user.email=a@b -c user.name=a commit -qm two
args: lint --repo "$tmp/ocg" --git-range HEAD~1..HEAD tenants
exit: 0
stdout-has: tenants/globex.YML: note: skipped: only names ending in .yaml, .yml or .json, in lower case, are read (as kubectl and Argo CD read them); rename it if it is a manifest [QF005]
