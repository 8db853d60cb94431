# --check naming a file said "missing output directory" and exit 1 (stale
# output): the file is there, it is no folder; exit 2.
setup-sh: mkdir -p "$tmp/cnf" && : >"$tmp/cnf/file"
args: compile examples/tenants -q --check "$tmp/cnf/file"
exit: 2
stderr-has: cnf/file: error: is a file, not a folder [QF002]
stderr-not: missing output directory
