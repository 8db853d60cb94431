# col= of a workflow command counts UTF-16 code units, as SARIF's
# startColumn does (lint-sarif-utf16-columns.t): GitHub names no unit, and
# the runner hands col= on as the check-run annotation's start column, the
# field code scanning fills from SARIF.  An emoji before a finding counts
# two, also in a file that does not load.  They were characters: 61 and 27.
args: lint tests/fixtures/lint/utf16 --format github
exit: 1
stdout-has: file=tests/fixtures/lint/utf16/flavour.yaml,line=5,col=63,title=QF104::
stdout-has: file=tests/fixtures/lint/utf16/broken.yaml,line=4,col=28,title=QF010::
stdout-not: col=61,
stdout-not: col=27,
