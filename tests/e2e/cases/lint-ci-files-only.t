# A folder of CI files only is nothing to lint (QF004, exit 1), as an empty
# one is: the notes that they are no objects do not make it pass.
args: lint examples/ci
exit: 1
stdout-has: no objects to lint: 2 files read under the paths given [QF004]
