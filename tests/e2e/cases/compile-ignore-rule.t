# --ignore drops one rule's warnings and notes; errors always stay.
args: compile examples/tenants --stdout --ignore QF316 --ignore QF326
exit: 0
stderr-not: QF316
stderr-not: QF326
stderr-has: [QF315]
