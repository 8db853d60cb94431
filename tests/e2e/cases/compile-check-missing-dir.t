# --check on a directory that does not exist: stale, exit 1.
args: compile examples/tenants --check tests/fixtures/spec/no-such-dir
exit: 1
stderr-has: no-such-dir: error: missing output directory
