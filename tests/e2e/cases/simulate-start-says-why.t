# --start with a time out of range says why, as for a day the calendar does
# not have: a leap second, an offset past a day, an hour, minute or month
# past its range, text after the time; each said only "is not a time"
args: simulate -f tests/fixtures/audit/cluster.yaml --start 2026-11-27T09:00:60Z
exit: 2
stderr-has: simulate: --start '2026-11-27T09:00:60Z' has a second of 60 (a leap second), which is out of range; expected an RFC 3339 time from 1970 on
stderr-not: is not a time
