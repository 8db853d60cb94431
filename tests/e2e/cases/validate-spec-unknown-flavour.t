# An unknown flavour in a Tenant: compile's QF308 with its did-you-mean.
args: validate tests/fixtures/spec/preferred-not-listed.yaml
exit: 1
stderr-has: preferred-not-listed.yaml:25:22: error:
stderr-has: [QF308]
stderr-has: did you mean "h100"?
