# lint --formt: exit 2 with a did-you-mean, nothing linted
args: lint examples/tenants --formt sarif
exit: 2
stderr-has: hint: did you mean '--format'? see 'lint --help'
stdout-not: errors,
