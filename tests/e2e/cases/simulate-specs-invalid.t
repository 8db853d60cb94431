# Invalid specs given to simulate fail as compile fails them: same rule ids,
# same positions, exit 1, nothing simulated.
args: simulate -f tests/fixtures/spec/committed-over-burst.yaml
exit: 1
stderr-has: tests/fixtures/spec/committed-over-burst.yaml:24:12: error: burst 2 is below committed 4
stderr-has: [QF309]
stderr-has: tests/fixtures/spec/committed-over-burst.yaml:25:15: error:
