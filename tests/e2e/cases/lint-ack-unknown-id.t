# A quotaflow.dev/ignore annotation naming a rule that does not exist
# (QF361 for QF316) acknowledged nothing without a word; lint (and compile)
# report it at the annotation with the near miss.
args: lint tests/fixtures/spec/unknown-ack.yaml
exit: 1
stdout-has: unknown-ack.yaml:6:39: error: "QF361" is not a rule quotaflow has; quotaflow.dev/ignore lists rule ids such as QF316, separated by commas [QF304]
stdout-has: hint: did you mean QF316? the rule ids are QF002-QF005,
