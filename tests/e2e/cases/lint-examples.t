# The bundled examples lint clean of errors; warnings and notes are reported.
args: lint examples/tenants
exit: 0
stdout-has: examples/tenants/acme.yaml:13:23: warning: tenant "applied-ai" has a guaranteed floor of 16 GPUs on spot flavour h100-spot
stdout-has: [QF407]
stdout-has: 0 errors, 3 warnings, 4 notes
