# A path that holds no objects is a failure, not "0 objects" and exit 0.
args: validate tests/fixtures/validate/empty
exit: 1
stderr-has: error: no objects to validate: 1 file read under the paths given [QF004]
