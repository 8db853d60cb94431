# the closing count is English for one of a kind: "1 error", not "1 errors"
args: lint tests/fixtures/lint/QF402-bad.yaml
exit: 1
stdout-has: 1 error, 1 warning, 0 notes
stdout-not: 1 errors
