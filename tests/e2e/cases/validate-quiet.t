# -q keeps validate's errors and drops its warnings and notes.
args: validate -q tests/fixtures/spec/notes-after-errors.yaml
exit: 1
stderr-has: error: burst 2 is below committed 4
stderr-not: QF326
