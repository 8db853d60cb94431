# a time without a UTC offset is ambiguous (local time of which zone?):
# refused, naming the option and what to add
args: audit report --db x.db --until 2026-11-01T10:00:00
exit: 2
stderr-has: audit report: --until '2026-11-01T10:00:00' has no UTC offset; expected an RFC 3339 time
