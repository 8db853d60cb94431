# --fail-on warning turns the examples' warnings into exit 1.
args: lint examples/tenants --fail-on warning
exit: 1
stdout-has: 0 errors, 3 warnings, 4 notes
