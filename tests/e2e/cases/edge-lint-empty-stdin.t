# lint - with nothing on standard input: QF004, exit 1
args: lint -
exit: 1
stdout-has: -: error: no objects to lint: standard input holds no document (it is empty, or holds only comments or ---) [QF004]
