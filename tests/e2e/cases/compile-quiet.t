# -q prints errors only.
args: compile examples/tenants --stdout -q
exit: 0
stderr-not: warning
stderr-not: note
--- stderr
