# A --rules file that does not load stops the run: exit 2, QF600 on stderr.
args: lint examples/tenants --rules tests/fixtures/lint/QF401-bad.yaml
exit: 2
stderr-has: QF401-bad.yaml:1:1: error: the rules file must hold one mapping [QF600]
