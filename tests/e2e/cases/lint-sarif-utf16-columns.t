# SARIF columns count UTF-16 code units (SARIF's default columnKind, which
# code scanning highlights by): an emoji before a finding counts two, also
# in a file that does not load.  They were code points: 61 and 27, so code
# scanning marked two and one characters too early.
args: lint tests/fixtures/lint/utf16 --format sarif
exit: 1
stdout-has: "columnKind": "utf16CodeUnits",
stdout-has: "startColumn": 63
stdout-has: "startColumn": 28
stdout-not: "startColumn": 61
stdout-not: "startColumn": 27
stdout-has: "text": "duplicate key \"name\" (first defined at 4:21) (hint:
