# A date-time with a UTC offset beyond +23:59 is an error in simulate as in
# validate (one check, core/when.h), at its file:line:col with why; simulate
# took it (and offsets up to +99:99, leap seconds, 30 February)
args: simulate -f examples/simulate/cluster.yaml -f tests/fixtures/simulate/offset-out-of-range.yaml
exit: 1
stderr-has: offset-out-of-range.yaml:6:63: error: invalid date-time "2026-01-01T00:00:00+24:00": a UTC offset runs from -23:59 to +23:59; expected RFC 3339 such as 2024-01-02T15:04:05Z [QF510]
stdout-not: team-a
