# February 30 is refused, not read as March 2
args: audit report --db x.db --since 2026-02-30T00:00:00Z
exit: 2
stderr-has: audit report: --since '2026-02-30T00:00:00Z' names no day of the calendar
