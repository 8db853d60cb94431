# the API server keeps one globalDefault PriorityClass; a second is refused
args: validate tests/fixtures/validate/priorityclass/two-global-defaults.yaml
exit: 1
stdout-has: 2 objects, 1 valid, 1 invalid, 0 skipped
stderr-has: tests/fixtures/validate/priorityclass/two-global-defaults.yaml:13:16: error: PriorityClass standard is already marked as default. Only one default can exist [QF226]
