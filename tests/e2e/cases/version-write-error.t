# A write error on stdout exits 2, even for --version (issue 13).
args: --version
exit: 0
stdout-has: quotaflow
after-sh: "$QF" --version >/dev/full 2>/dev/null; test $? = 2
