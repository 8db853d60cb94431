# a record of a JSON List (kubectl get workloads,clusterqueues -o json)
# rejected for one field is named at that field's line:col, as in YAML:
# a condition's time, a usage that is no quantity, a misspelt quota key;
# they all said the object's first line (4:1, 77:1, 150:1)
args: audit ingest --db "$tmp/aijfl.db" tests/fixtures/audit/workloads-bad-fields.json
exit: 1
stderr-has: workloads-bad-fields.json:58:47: error: Workload team-s/s1: status.conditions[0].lastTransitionTime "2026-06-12T09:62:40Z" is not a time
stderr-has: workloads-bad-fields.json:119:51: error: Workload team-u/u1: status.admission.podSetAssignments[0].resourceUsage.nvidia.com/gpu "one" is not a quantity
stderr-has: workloads-bad-fields.json:169:41: error: ClusterQueue team-q: "nominalquota" is no field of it
stdout-has: ingested 3 records: 0 added, 3 rejected
