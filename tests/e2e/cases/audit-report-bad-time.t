# --since takes an RFC 3339 time
args: audit report --db x.db --since yesterday
exit: 2
stderr-has: 'yesterday' is not an RFC 3339 time
