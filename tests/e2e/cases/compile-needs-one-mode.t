# Exactly one output mode is a usage error otherwise.
args: compile examples/tenants --stdout --krm
exit: 2
stderr-has: give exactly one of -o DIR, --stdout, --check DIR or --krm
