# SARIF names no web address quotaflow cannot vouch for (informationUri and
# helpUri are optional; a placeholder project URL was there); each rule's
# help text says where its documentation is
args: lint examples/tenants --format sarif
exit: 0
stdout-has: "version": "2.1.0"
stdout-not: informationUri
stdout-not: helpUri
stdout-not: github.com
stdout-has: is documented in docs/rules.md of quotaflow's sources
