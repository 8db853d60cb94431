# validate says why an offset past +23:59 is refused (it said only
# "invalid date-time", as for text that is no time at all)
args: validate tests/fixtures/simulate/offset-out-of-range.yaml
exit: 1
stderr-has: offset-out-of-range.yaml:6:63: error: invalid date-time "2026-01-01T00:00:00+24:00": a UTC offset runs from -23:59 to +23:59 [QF107]
