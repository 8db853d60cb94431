# Every problem of the input in one run, each at file:line:col; nothing on stdout.
args: compile tests/fixtures/spec/committed-over-burst.yaml --stdout
exit: 1
stderr-has: committed-over-burst.yaml:24:12: error: burst 2 is below committed 4
stderr-has: committed-over-burst.yaml:25:15: error: lendable 6 is above committed 4
--- stdout
