# --check DIR// is DIR: not every file reported stale (issue 13).
args: compile examples/tenants --check tests/golden/tenants/deploy//
exit: 0
stdout-has: is up to date (34 files)
