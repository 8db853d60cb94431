# validate accepts Pool and Tenant documents (built-in JSON Schemas).
args: validate examples/tenants
exit: 0
stdout-has: 9 objects, 9 valid, 0 invalid, 0 skipped
