# The example pool compiles; manifests on stdout, notes on stderr.
args: compile examples/tenants --stdout
exit: 0
stdout-has: kind: ClusterQueue
stdout-has: name: applied-ai
stdout-has: cohortName: acme
stdout-has: nominalQuota: "16"
stdout-has: quotaflow.dev/source: acme.yaml:
stderr-has: [QF315]
stdout-not: QF315
