# --start takes a time of a day the calendar has (usage error, exit 2, naming the option, what is wrong and the forms expected)
args: simulate -f tests/fixtures/audit/cluster.yaml --start 2026-02-30T09:00:00Z
exit: 2
stderr-has: simulate: --start '2026-02-30T09:00:00Z' names no day of the calendar; expected an RFC 3339 time from 1970 on (2026-11-27T09:00:00Z, 2026-11-27T10:00:00+01:00) or a date (2026-11-27: midnight UTC)
