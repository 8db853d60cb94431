# a ClusterQueue whose quota list is misspelled (resourceGroup, flavours,
# resource, nominalquota) is rejected at the key with a did-you-mean: it
# was stored without any quota, exit 0, and its workloads' waits judged
# against nothing
setup-sh: sed '0,/resourceGroups:/s/resourceGroups:/resourceGroup:/' tests/fixtures/audit/cluster.yaml >"$tmp/aiqt1.yaml" && sed '0,/    flavors:/s/    flavors:/    flavours:/' tests/fixtures/audit/cluster.yaml >"$tmp/aiqt2.yaml" && sed '0,/nominalQuota/s/nominalQuota/nominalquota/' tests/fixtures/audit/cluster.yaml >"$tmp/aiqt3.yaml"
args: audit ingest --db "$tmp/aiqt.db" "$tmp/aiqt1.yaml" "$tmp/aiqt2.yaml" "$tmp/aiqt3.yaml"
exit: 1
stderr-has: /aiqt1.yaml:17:3: error: ClusterQueue team-a: "resourceGroup" is no field of it: the quotas under it would be lost [QF703]
stderr-has: hint: did you mean "resourceGroups"? nothing of this ClusterQueue is stored
stderr-has: /aiqt2.yaml:19:5: error: ClusterQueue team-a: "flavours" is no field of it
stderr-has: /aiqt3.yaml:22:32: error: ClusterQueue team-a: "nominalquota" is no field of it
