# An unquoted time is named as written: YAML (go-yaml, as kubectl) rewrites
# 2026-01-01T00:00:00+23:60 as +24:00 before the date-time check, and the
# error quoted the rewritten +24:00, which is nowhere in the file
setup-sh: sed 's/+24:00/+23:60/' tests/fixtures/simulate/offset-out-of-range.yaml >"$tmp/ow.yaml"
args: validate "$tmp/ow.yaml"
exit: 1
stderr-has: ow.yaml:6:63: error: invalid date-time "2026-01-01T00:00:00+23:60": a UTC offset runs from -23:59 to +23:59 [QF107]
stderr-has: hint: expected an RFC 3339 date-time such as 2024-01-02T15:04:05Z; YAML reads the unquoted 2026-01-01T00:00:00+23:60 as the time 2026-01-01T00:00:00+24:00, which is what kubectl sends
stderr-not: invalid date-time "2026-01-01T00:00:00+24:00"
