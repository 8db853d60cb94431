# validate --ignore with a well-formed id no rule has: exit 2 (it
# suppressed nothing); one that is not even an id keeps its message.
args: validate tests/fixtures/lint/QF402-good.yaml --ignore QF999
exit: 2
stderr-has: --ignore: "QF999" is not a rule quotaflow has; the rule ids are QF002-QF005,
