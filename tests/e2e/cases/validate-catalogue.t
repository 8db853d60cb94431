# Every mutated manifest of the catalogue is rejected.
args: validate tests/fixtures/validate/bad
exit: 1
stdout-has: 61 objects, 0 valid, 61 invalid, 0 skipped
