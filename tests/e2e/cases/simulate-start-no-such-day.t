# --start takes an RFC 3339 time of a day the calendar has (usage error, exit 2, naming the option and the form expected)
args: simulate -f tests/fixtures/audit/cluster.yaml --start 2026-02-30T09:00:00Z
exit: 2
stderr-has: simulate: --start 2026-02-30T09:00:00Z: expected an RFC 3339 time from 1970 on, such as 2026-11-27T09:00:00Z or 2026-11-27T10:00:00+01:00
