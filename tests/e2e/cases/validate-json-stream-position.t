# An error inside the fifth object of a JSON stream names its own line and
# column in the file.
args: validate tests/fixtures/doc/stream/bad-quota.json
exit: 1
stdout-has: 8 objects, 5 valid, 1 invalid, 2 skipped
stderr-has: tests/fixtures/doc/stream/bad-quota.json:79:49: error: Invalid value: "-1": must be greater than or equal to 0 [QF208]
