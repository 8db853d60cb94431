# quotaflow help audit ingest prints ingest's help (it printed audit's
# overview); audit help report works too
args: help audit ingest
exit: 0
stdout-has: usage: quotaflow audit ingest --db FILE
stdout-not: Who waited, who borrowed
