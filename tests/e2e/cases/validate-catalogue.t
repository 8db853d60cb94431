# Every mutated manifest of the catalogue is rejected.
args: validate tests/fixtures/validate/bad
exit: 1
stdout-has: 62 objects, 0 valid, 62 invalid, 0 skipped
