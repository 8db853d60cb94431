# simulate names an unquoted time as written too (+23:60, which YAML
# rewrites as +24:00), as validate does
setup-sh: sed 's/+24:00/+23:60/' tests/fixtures/simulate/offset-out-of-range.yaml >"$tmp/os.yaml"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/os.yaml"
exit: 1
stderr-has: os.yaml:6:63: error: invalid date-time "2026-01-01T00:00:00+23:60": a UTC offset runs from -23:59 to +23:59; expected RFC 3339 such as 2024-01-02T15:04:05Z [QF510]
stdout-not: team-a
