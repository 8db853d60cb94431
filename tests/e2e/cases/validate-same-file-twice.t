# A file named beside its folder is read once: it was read twice, its Pool
# "a second Pool" (QF307) and the spec invalid; the second name is noted.
args: validate examples/tenants ./examples/tenants/pool.yaml
exit: 0
stdout-has: 9 objects, 9 valid, 0 invalid, 0 skipped
stderr-has: note: skipped: the same file as ./examples/tenants/pool.yaml [QF005]
stderr-not: [QF307]
