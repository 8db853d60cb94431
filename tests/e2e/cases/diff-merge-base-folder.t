# a folder (or file) here as a side of BASE...HEAD: a merge base needs two
# commits, so say that and how to compare the folder; it said "unknown
# revision" with a hint about branches and shallow clones
setup-sh: rm -rf "$tmp/dmf" && git init -q -b main "$tmp/dmf" && cp -r examples/tenants "$tmp/dmf/t" && git -C "$tmp/dmf" add -A && git -C "$tmp/dmf" -c user.email=a@b -c user.name=a commit -qm t
args: diff examples/tenants...main --repo "$tmp/dmf"
exit: 2
stderr-has: error: "examples/tenants" is a folder here, not a revision: BASE...HEAD compares HEAD with where it parted from BASE (their merge base), which needs two commits [QF021]
stderr-has: hint: to compare the folder itself, give two sides: quotaflow diff examples/tenants main (or examples/tenants..main)
stderr-not: unknown revision
stderr-not: shallow clone
