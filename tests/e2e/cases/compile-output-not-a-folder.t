# -o naming a file: said so (it was the OS's "cannot open directory: Not a
# directory"); nothing is written, exit 2.
setup-sh: mkdir -p "$tmp/onf" && : >"$tmp/onf/file"
args: compile examples/tenants -q -o "$tmp/onf/file"
exit: 2
stderr-has: onf/file: error: is a file, not a folder [QF002]
stderr-has: hint: -o and --check name the folder that holds one file per object
after-sh: test ! -s "$tmp/onf/file"
