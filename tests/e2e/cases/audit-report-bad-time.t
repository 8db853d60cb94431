# --since takes an RFC 3339 time (or a date): the message names the option
args: audit report --db x.db --since yesterday
exit: 2
stderr-has: audit report: --since 'yesterday' is not a time; expected an RFC 3339 time (2026-06-12T09:00:00Z, 2026-06-12T11:00:00.5+02:00) or a date (2026-06-12: midnight UTC)
