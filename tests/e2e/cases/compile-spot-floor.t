# A committed floor on a spot flavour is a warning (spot: true is used);
# the example acknowledges it with the quotaflow.dev/ignore annotation.
args: compile tests/fixtures/spec/spot-floor.yaml --stdout
exit: 0
stderr-has: spot-floor.yaml:24:23: warning: tenant "t1" has its committed floor of 4 GPUs on the spot flavour "cheap"
stderr-not: "t2"
stderr-not: "t3"
