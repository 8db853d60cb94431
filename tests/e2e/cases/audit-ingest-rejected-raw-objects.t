# A rejected Workload or policy object (ClusterQueue, Cohort, LocalQueue,
# ResourceFlavor, Pool) is kept in `rejected` with its raw text, as every
# other rejected record is (a List's item: its compact text): they were
# kept with an empty one
setup-sh: "$QF" audit ingest --db "$tmp/airro.db" tests/fixtures/audit/workloads-bad-fields.json >/dev/null 2>&1; test $? = 1
args: audit query --db "$tmp/airro.db" "select line, json_extract(raw, '$.kind') as kind, json_extract(raw, '$.metadata.name') as name, json_extract(raw, '$.spec.resourceGroups[0].flavors[0].resources[0].nominalquota') as typo from rejected order by line"
exit: 0
--- stdout
line	kind	name	typo
4	Workload	s1	
77	Workload	u1	
150	ClusterQueue	team-q	4
