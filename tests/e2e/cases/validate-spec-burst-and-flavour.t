# Burst below committed and an unknown account are found by validate too.
args: validate tests/fixtures/spec/committed-over-burst.yaml
exit: 1
stderr-has: committed-over-burst.yaml:24:12: error: burst 2 is below committed 4; burst is the ceiling and includes the committed GPUs [QF309]
stderr-has: committed-over-burst.yaml:25:15: error: lendable 6 is above committed 4
