# kubectl's habit -o json is refused with a hint, never a directory.
args: compile examples/tenants -o json
exit: 2
stderr-has: -o takes a directory, not an output format
stderr-has: --format json
after-sh: test ! -e json
