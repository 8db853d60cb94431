# audit ingest: a ClusterQueue whose creationTimestamp or a managedFields time is given and is no RFC 3339 time is rejected at that field (QF703, the field and value named), nothing of it stored; its quota was stored as valid from the start of the evidence, without a word
setup-sh: printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: team-a\n  creationTimestamp: "2026-13-01T00:00:00Z"\nspec:\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: default\n      resources:\n      - {name: cpu, nominalQuota: 4}\n---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: team-b\n  managedFields:\n  - {manager: kubectl, operation: Update, time: "yesterday"}\nspec:\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: default\n      resources:\n      - {name: cpu, nominalQuota: 4}\n' >"$tmp/apbt.yaml"
args: audit ingest --db "$tmp/apbt.db" "$tmp/apbt.yaml"
exit: 1
stdout-has: ingested 2 records: 0 added, 2 rejected
stderr-has: apbt.yaml:5:22: error: ClusterQueue team-a: metadata.creationTimestamp "2026-13-01T00:00:00Z" is not a time (RFC 3339, 2026-06-12T09:00:00Z); nothing of it is stored [QF703]
stderr-has: apbt.yaml:19:49: error: ClusterQueue team-b: metadata.managedFields[0].time "yesterday" is not a time
after-sh: test "$("$QF" audit query --db "$tmp/apbt.db" "select count(*) from quotas")" = "$(printf 'count(*)\n0')"
