# --start with an offset past +23:59 says why (it said "is not a time")
args: simulate -f tests/fixtures/audit/cluster.yaml --start 2026-11-27T09:00:00+23:60
exit: 2
stderr-has: simulate: --start '2026-11-27T09:00:00+23:60' has a UTC offset past the range of -23:59 to +23:59; expected
stderr-not: is not a time
