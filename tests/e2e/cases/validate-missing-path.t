# A mistyped path fails the run with the path and the OS error.
args: validate tests/fixtures/validate/no-such-dir
exit: 1
stderr-has: tests/fixtures/validate/no-such-dir
stderr-has: No such file or directory [QF002]
