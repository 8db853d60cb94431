# finish --certificate-authority with an http:// --server: the CA has
# nothing to verify, which is said before any request (exit 2)
args: finish team-a/job1 --server http://127.0.0.1:1 --certificate-authority README.md
exit: 2
stderr-has: finish: --certificate-authority is for an https:// --server
stderr-not: cannot reach
