# audit report --until says why an hour 24 is no time (it said "is not a
# time"); a trailing word after the time is named as such
args: audit report --db x.db --until 2026-06-12T24:00Z
exit: 2
stderr-has: audit report: --until '2026-06-12T24:00Z' names an hour past 23; expected
stderr-not: is not a time
