# A JSON stream on standard input (kubectl get -o json ... | quotaflow
# validate -) is read the same way, positions included.
args: validate -
stdin: tests/fixtures/doc/stream/bad-quota.json
exit: 1
stdout-has: 8 objects, 5 valid, 1 invalid, 2 skipped
stderr-has: -:79:49: error: Invalid value: "-1": must be greater than or equal to 0 [QF208]
