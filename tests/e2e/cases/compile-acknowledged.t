# The quotaflow.dev/ignore annotation acknowledges a rule for its Tenant
# only: t1's QF316 stays, t2's (acknowledged) goes.
args: compile tests/fixtures/spec/acknowledged.yaml --stdout
exit: 0
stderr-has: acknowledged.yaml:25:15: warning: tenant "t1" lends up to 4
stderr-not: "t2"
