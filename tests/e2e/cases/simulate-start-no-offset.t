# --start without Z or an offset is ambiguous (local time of which zone?): a usage error, exit 2
args: simulate -f tests/fixtures/audit/cluster.yaml --start 2026-11-27T09:00:00
exit: 2
stderr-has: simulate: --start '2026-11-27T09:00:00' has no UTC offset; expected an RFC 3339 time from 1970 on
