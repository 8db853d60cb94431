# A date-time the API server refuses (Go's time.Parse: a day the month does
# not have, a leap second) is QF107 with why; both were taken as valid.
args: validate tests/fixtures/validate/bad/rf-taint-added-feb-29.yaml tests/fixtures/validate/bad/cq-created-leap-second.yaml
exit: 1
stderr-has: rf-taint-added-feb-29.yaml:13:16: error: invalid date-time "2023-02-29T10:00:00Z": the month has no such day [QF107]
stderr-has: cq-created-leap-second.yaml:6:22: error: invalid date-time "2016-12-31T23:59:60Z": a second of 60 (a leap second) is out of range [QF107]
stdout-has: 2 objects, 0 valid, 2 invalid, 0 skipped
