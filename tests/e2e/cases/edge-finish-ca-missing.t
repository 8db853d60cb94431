# finish --certificate-authority naming a missing file: exit 2 (the
# environment), as for --token-file, before any request
args: finish team-a/job1 --server https://127.0.0.1:1 --certificate-authority /nonexistent/ca.pem
exit: 2
stderr-has: --certificate-authority /nonexistent/ca.pem: No such file or directory [QF563]
stderr-has: hint: give the controller's --tls-cert file, or the CA that signed it
stderr-not: cannot reach
