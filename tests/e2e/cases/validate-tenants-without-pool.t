# Tenants alone get their schema check and a note that the cross-tenant
# checks need the Pool.
args: validate examples/tenants/acme.yaml
exit: 0
stdout-has: 4 objects, 4 valid, 0 invalid, 0 skipped
stderr-has: acme.yaml:2:1: note: no Pool among the inputs
