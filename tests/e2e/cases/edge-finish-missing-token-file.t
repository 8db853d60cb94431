# finish --token-file naming a missing file: exit 2 (the environment), as
# an unreadable one, before any request
args: finish team-a/job1 --token-file /nonexistent/token --server http://127.0.0.1:1
exit: 2
stderr-has: /nonexistent/token: error: cannot open file: No such file or directory [QF002]
stderr-not: cannot reach
