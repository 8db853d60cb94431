# A folder given with more than one trailing slash (tenants//) names its
# files as tenants/ does: the file name goes into the quotaflow.dev/source
# annotation, which said "examples/tenants//pool.yaml:11", so the same spec
# compiled from tenants// and tenants/ differed and --check saw it stale;
# the annotation now names the file relative to the input root
args: compile examples/tenants// --stdout -q
exit: 0
stdout-has: quotaflow.dev/source: pool.yaml:11
stdout-not: tenants//
