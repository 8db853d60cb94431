# --krm reads a ResourceList on stdin: a PATH beside it is a usage error
# (exit 2); it was ignored and the empty stdin said "no Pool document
# found" (exit 1) of a folder that holds one
args: compile examples/tenants --krm
exit: 2
stderr-has: quotaflow: error: compile: --krm reads a ResourceList on standard input and takes no PATH ('examples/tenants')
stderr-not: no Pool document
