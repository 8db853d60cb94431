# diff notes a committed .YML file a side does not read (QF005, as lint
# --git-range and compile do): the side compiled and its notes were
# dropped, so globex's tenants read as removed without a word
setup-sh: rm -rf "$tmp/ocd" && mkdir -p "$tmp/ocd/tenants" && cp examples/tenants/*.yaml "$tmp/ocd/tenants/" && cd "$tmp/ocd" && git init -q && git add . && git -c user.email=a@b -c user.name=a commit -qm one && git mv tenants/globex.yaml tenants/globex.YML && git -c user.email=a@b -c user.name=a commit -qm two
args: diff --repo "$tmp/ocd" HEAD~1 HEAD --path tenants
exit: 0
stdout-has: - globex-vision
stderr-has: HEAD:tenants/globex.YML: note: skipped: only names ending in .yaml, .yml or .json, in lower case, are read (as kubectl and Argo CD read them); rename it if it is a manifest [QF005]
stderr-not: HEAD~1:
