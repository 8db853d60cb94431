# lint - with nothing on standard input: QF004, exit 1
args: lint -
exit: 1
stdout-has: error: no objects to lint: 1 file read under the paths given [QF004]
