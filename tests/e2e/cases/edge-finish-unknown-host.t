# finish --server naming a host that does not resolve: the resolver's
# reason, not an unrelated errno text
args: finish team-a/job1 --server http://nonexistent.invalid:8080
exit: 2
stderr-has: cannot reach the controller at http://nonexistent.invalid:8080: cannot resolve nonexistent.invalid:
stderr-not: No such file or directory
