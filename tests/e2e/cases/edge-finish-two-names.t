# finish takes one Workload or Job: two names are a usage error that says
# how many were given and which is too many (it said "one NS/NAME argument
# is required", as if none had been given), before any request
args: finish team-a/a team-a/b --server http://127.0.0.1:1
exit: 2
stderr-has: finish: one NS/NAME argument, not 2 ('team-a/b' is one too many)
stderr-not: is required
stderr-not: cannot reach
