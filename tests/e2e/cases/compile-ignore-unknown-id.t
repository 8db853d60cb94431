# --ignore names a rule quotaflow does not have (a typo of QF316): exit 2
# with the near miss and the ids that exist; it ignored nothing, silently.
args: compile examples/tenants --stdout --ignore QF361
exit: 2
stderr-has: --ignore: "QF361" is not a rule quotaflow has (did you mean QF316?); the rule ids are QF002-QF005,
stderr-has: QF301-QF320, QF322-QF324, QF326,
stdout-not: kind: ClusterQueue
