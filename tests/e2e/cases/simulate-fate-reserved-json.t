# --format json: a workload holding quota while its admission checks are
# pending is "reserved" with its ClusterQueue and checks (it said
# "admitted" while the text said pending).
args: simulate -f tests/fixtures/simulate/v1beta1-checks.yaml --submit tests/fixtures/simulate/submit.yaml --format json
exit: 0
stdout-has: "state": "reserved",
stdout-has: "reservedAtMs": 0,
stdout-has: "prov": "Pending"
stdout-not: "state": "admitted"
