# A pattern that does not compile is reported where it is written.
args: lint examples/tenants --rules tests/fixtures/lint/bad-policy.yaml
exit: 2
stderr-has: bad-policy.yaml:3:11: error: names.tenant: bad pattern at offset 5: missing closing parenthesis [QF600]
