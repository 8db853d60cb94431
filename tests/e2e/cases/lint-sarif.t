# SARIF for code scanning: version, driver, repository-relative URIs.
args: lint examples/tenants --format sarif
exit: 0
stdout-has: "version": "2.1.0"
stdout-has: "name": "quotaflow"
stdout-has: "uri": "examples/tenants/acme.yaml"
stdout-has: "startLine": 13
stdout-has: "ruleId": "QF433"
stdout-not: errors,
