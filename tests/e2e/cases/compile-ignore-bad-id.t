args: compile examples/tenants --stdout --ignore 316
exit: 2
stderr-has: --ignore: "316" is not a rule id such as QF316
