# A webhook rule a schema-only validator misses, with position and path.
args: validate tests/fixtures/validate/bad/cq-lending-above-nominal.yaml
exit: 1
--- stdout
1 object, 0 valid, 1 invalid, 0 skipped
--- stderr
tests/fixtures/validate/bad/cq-lending-above-nominal.yaml:21:23: error: Invalid value: "9": must be less than or equal to the nominalQuota [QF211]
  at spec.resourceGroups[0].flavors[0].resources[2].lendingLimit
  hint: a ClusterQueue can lend at most its own nominalQuota
