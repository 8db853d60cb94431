# audit help SUB, as git help does
args: audit help report
exit: 0
stdout-has: usage: quotaflow audit report --db FILE
