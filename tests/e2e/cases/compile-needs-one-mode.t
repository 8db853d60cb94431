# Two output modes are a usage error.
args: compile examples/tenants --stdout --krm
exit: 2
stderr-has: give only one of -o DIR, --stdout, --check DIR or --krm
