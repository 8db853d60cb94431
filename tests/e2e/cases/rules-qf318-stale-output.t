# QF318: --check names every stale file of the output directory.
setup: compile examples/tenants -o "$tmp/deploy"
setup-sh: echo '# edited by hand' >>"$tmp/deploy/cohort/acme.yaml"
args: compile examples/tenants --check "$tmp/deploy"
exit: 1
stderr-has: cohort/acme.yaml
stderr-has: [QF318]
