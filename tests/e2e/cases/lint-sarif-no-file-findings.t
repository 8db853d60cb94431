# Code scanning refuses a whole SARIF log ("expected at least one location")
# when one result has no location: Tenants given without their Pool are told
# so at the first Tenant (QF307 had no place), and a finding that has no
# file (QF004, nothing to lint) is a notification of the run, not a result.
args: lint examples/tenants/acme.yaml --format sarif
exit: 1
stdout-not: "locations": []
stdout-has: "text": "no Pool document found; an input needs exactly one Pool (apiVersion quotaflow.dev/v1alpha1, kind Pool)"
stdout-has: "uri": "examples/tenants/acme.yaml"
