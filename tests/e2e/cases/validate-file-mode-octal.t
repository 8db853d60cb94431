# A leading zero is said only where a count or quantity is expected: a
# file mode (defaultMode: 0644) is octal on purpose, and a cpu request 02
# is 2 either way.
args: validate tests/fixtures/validate/workload/file-mode.yaml
exit: 0
stdout-has: 1 object, 1 valid, 0 invalid, 0 skipped
stderr-not: QF016
