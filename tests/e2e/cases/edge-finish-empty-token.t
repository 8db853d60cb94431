# finish --token-file naming an empty file: exit 2 before any request
# (it sent "Bearer " and reported the 401)
setup-sh: mkdir -p "$tmp/fet" && : >"$tmp/fet/token"
args: finish team-a/job1 --token-file "$tmp/fet/token" --server http://127.0.0.1:1
exit: 2
stderr-has: /fet/token:1:1: error: --token-file: the file is empty; it must hold the bearer token [QF562]
stderr-not: cannot reach
