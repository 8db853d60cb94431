# audit report --since/--until say why a time is out of range (one parser
# with simulate --start): a month 13, an hour 24, text after the time; each
# said only "is not a time"
args: audit report --db x.db --since 2026-13-01
exit: 2
stderr-has: audit report: --since '2026-13-01' names no month of the year (01 to 12); expected
stderr-not: is not a time
