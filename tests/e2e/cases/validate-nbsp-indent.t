# A no-break space (U+00A0, pasted from a web page) in the indentation:
# the hint names its line and column; it said to quote a value holding
# ": " or check the indentation, with nothing visibly wrong there
args: validate tests/fixtures/doc/bad/nbsp-indent.yaml
exit: 1
stderr-has: nbsp-indent.yaml:10:7: error: YAML syntax error: mapping values are not allowed in this context [QF010]
stderr-has: hint: line 9 indents with a no-break space (U+00A0) at column 1, which YAML reads as text: indent with plain spaces
