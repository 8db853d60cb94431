# finish --server https://...: finish speaks plain HTTP, and says so
args: finish team-a/job1 --server https://127.0.0.1:1
exit: 2
stderr-has: finish: https:// is not supported: finish speaks plain HTTP
