# a side written as a path (./x, x/, a.yaml) that is neither here nor a
# revision is a mistyped path: said so, with what a side may be; it said
# "unknown revision" with a hint about branches and shallow clones
setup-sh: rm -rf "$tmp/dmp" && git init -q -b main "$tmp/dmp" && cp -r examples/tenants "$tmp/dmp/t" && git -C "$tmp/dmp" add -A && git -C "$tmp/dmp" -c user.email=a@b -c user.name=a commit -qm t
args: diff ./examples/tenant main --repo "$tmp/dmp"
exit: 2
stderr-has: error: "./examples/tenant" is no folder or file here, nor a revision of the repository [QF021]
stderr-has: hint: a side is a folder, a *.yaml, *.yml or *.json file, or a branch, tag or commit id; check the path
stderr-not: unknown revision
stderr-not: shallow clone
