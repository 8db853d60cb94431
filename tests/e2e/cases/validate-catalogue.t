# Every mutated manifest of the catalogue is rejected.
args: validate tests/fixtures/validate/bad
exit: 1
stdout-has: 67 objects, 0 valid, 67 invalid, 0 skipped
