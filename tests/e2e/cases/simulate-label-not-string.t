# A label value that YAML reads as a boolean or number is refused by the
# API server; simulate says so at its place (it dropped the label, so the
# selector matched every namespace).
args: simulate -f tests/fixtures/simulate/label-not-string.yaml
exit: 1
--- stderr
tests/fixtures/simulate/label-not-string.yaml:12:25: error: team of matchLabels must be a string, not a boolean: quote it (YAML reads yes, no, on, off, true, false and numbers as such) [QF510]
