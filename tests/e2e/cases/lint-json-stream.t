# lint reads a JSON stream: the validator's error and the lint warnings
# name positions inside the later objects.
args: lint tests/fixtures/doc/stream/bad-quota.json
exit: 1
stdout-has: bad-quota.json:79:49: error: Invalid value: "-1": must be greater than or equal to 0 [QF208]
stdout-has: bad-quota.json:63:30: warning: ClusterQueue "team-b" admits every namespace
