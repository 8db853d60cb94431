# --start before the epoch is refused (the engine's times are >= 0): usage error, exit 2, saying so
args: simulate -f tests/fixtures/audit/cluster.yaml --start 1969-12-31
exit: 2
stderr-has: simulate: --start '1969-12-31' is before 1970; expected an RFC 3339 time from 1970 on
