# --dump-state writes a ClusterQueue as the API server keeps it: without
# the fields the simulation ignored (QF512), here v1beta1's
# spec.admissionChecks and the misspelt namespaceSelektor.
args: simulate -f tests/fixtures/simulate/unknown-fields.yaml --dump-state "$tmp/unknown-dump.json"
exit: 0
stderr-has: [QF512]
after-sh: grep -q '"resourceGroups"' "$tmp/unknown-dump.json"
after-sh: ! grep -q 'namespaceSelektor' "$tmp/unknown-dump.json"
after-sh: ! grep -q '"admissionChecks"' "$tmp/unknown-dump.json"
