# A JSON stream saved with a UTF-8 byte order mark and CRLF line ends
# (PowerShell's redirection) keeps the positions of the plain file.
setup-sh: { printf '\357\273\277'; sed 's/$/\r/' tests/fixtures/doc/stream/bad-quota.json; } >"$tmp/bom-crlf.json"
args: validate "$tmp/bom-crlf.json"
exit: 1
stdout-has: 8 objects, 5 valid, 1 invalid, 2 skipped
stderr-has: bom-crlf.json:79:49: error: Invalid value: "-1": must be greater than or equal to 0 [QF208]
