# No FILE or DIR is a usage error.
args: validate
exit: 2
stderr-has: usage: quotaflow validate
