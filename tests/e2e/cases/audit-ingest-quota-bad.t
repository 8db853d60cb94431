# a ClusterQueue whose nominalQuota is no quantity ("four") or negative
# is rejected at the field (QF703), not stored without its quota (exit 0,
# its quota rows dropped unsaid; "-4" was stored as -4000)
setup-sh: sed 's/nominalQuota: "4"}/nominalQuota: four}/; s/team-d/team-d/' tests/fixtures/audit/cluster.yaml | awk '/nominalQuota: four/ && ++n == 2 { sub(/four/, "\"-4\"") } 1' >"$tmp/aiqb.yaml"
args: audit ingest --db "$tmp/aiqb.db" "$tmp/aiqb.yaml"
exit: 1
stderr-has: /aiqb.yaml:22:46: error: ClusterQueue team-a: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota "four" is not a quantity of 0 or more (4, 500m, 1Gi) [QF703]
stderr-has: /aiqb.yaml:43:46: error: ClusterQueue team-b: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota "-4" is not a quantity of 0 or more
stderr-has: hint: nothing of this ClusterQueue is stored
after-sh: test "$(sqlite3 "$tmp/aiqb.db" 'select count(*) from quotas where nominal_milli < 0')" = 0
