# A path that holds no objects is a failure, not "0 objects" and exit 0.
args: validate tests/fixtures/validate/empty
exit: 1
stderr-has: empty/empty.yaml: error: no objects to validate: the file holds no document (it is empty, or holds only comments or ---) [QF004]
