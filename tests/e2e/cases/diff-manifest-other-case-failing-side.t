# A side that does not compile keeps the QF005 notes of both sides next to
# its errors, and the notes are not counted as errors ("1 error") nor
# listed among them in the JSON
setup-sh: rm -rf "$tmp/ocf" && mkdir -p "$tmp/ocf/tenants" && cp examples/tenants/*.yaml "$tmp/ocf/tenants/" && cd "$tmp/ocf" && git init -q && git add . && git -c user.email=a@b -c user.name=a commit -qm one && git mv tenants/globex.yaml tenants/globex.YML && echo 'x: [' >tenants/bad.yaml && git add . && git -c user.email=a@b -c user.name=a commit -qm two
args: diff --repo "$tmp/ocf" HEAD~1 HEAD --path tenants
exit: 1
stdout-has: HEAD does not compile (1 error, on stderr)
stderr-has: HEAD:tenants/bad.yaml:1:5: error:
stderr-has: HEAD:tenants/globex.YML: note: skipped: only names ending in .yaml, .yml or .json, in lower case
