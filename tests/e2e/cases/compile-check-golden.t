# The committed golden tree is exactly what -o writes (the Flux CI gate).
args: compile examples/tenants --check tests/golden/tenants/deploy
exit: 0
stdout-has: tests/golden/tenants/deploy is up to date (34 files)
