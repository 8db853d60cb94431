# Dates before 1970, 29 February of a leap year and year 0001 are valid
# Kubernetes times (metav1.Time is Go's time.Time): not said.
args: validate tests/fixtures/validate/dates/old-and-leap.yaml
exit: 0
stdout-has: 1 object, 1 valid, 0 invalid, 0 skipped
stderr-not: QF107
