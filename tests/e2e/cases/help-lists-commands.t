# `quotaflow help` lists the commands; unknown commands exit 2 with a hint
args: help
exit: 0
stdout-has: usage: quotaflow
stdout-has: help
