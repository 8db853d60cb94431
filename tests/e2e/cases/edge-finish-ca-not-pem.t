# finish --certificate-authority naming a file that holds no PEM
# certificate: said, with what to give instead (exit 2)
args: finish team-a/job1 --server https://127.0.0.1:1 --certificate-authority README.md
exit: 2
stderr-has: --certificate-authority README.md: not a PEM certificate
stderr-not: cannot reach
