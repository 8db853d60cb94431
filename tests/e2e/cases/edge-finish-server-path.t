# finish --server with a path would silently drop it: refused (exit 2)
args: finish team-a/job1 --server http://127.0.0.1:1/api
exit: 2
stderr-has: finish: --server takes http[s]://HOST:PORT, without a path
stderr-not: cannot reach
