# -o naming a symbolic link to nothing was exit 1 ("cannot open
# directory: No such file or directory", as if the input were wrong):
# a usage error naming the link's target, exit 2.
setup-sh: mkdir -p "$tmp/odl" && ln -sfn "$tmp/odl/nowhere" "$tmp/odl/out"
args: compile examples/tenants -q -o "$tmp/odl/out"
exit: 2
stderr-has: odl/out: error: a symbolic link to "
stderr-has: odl/nowhere", which does not exist; expected a folder [QF002]
after-sh: test ! -e "$tmp/odl/nowhere"
