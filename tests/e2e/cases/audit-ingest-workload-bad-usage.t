# A Workload whose admission's resourceUsage is negative or no quantity (Kueue writes none such: a hand-edited or broken record) is rejected at that field, and nothing of it is stored (a negative usage was taken as is, an unreadable one skipped without a word)
setup-sh: sed 's/resourceUsage: {nvidia.com\/gpu: "1"}/resourceUsage: {nvidia.com\/gpu: "-1"}/' tests/fixtures/audit/inactive/stopped-workloads.yaml >"$tmp/neg.yaml"
setup-sh: sed 's/resourceUsage: {nvidia.com\/gpu: "1"}/resourceUsage: {nvidia.com\/gpu: "one"}/' tests/fixtures/audit/inactive/stopped-workloads.yaml >"$tmp/bad.yaml"
args: audit ingest --db "$tmp/a.db" "$tmp/neg.yaml" "$tmp/bad.yaml"
exit: 1
stdout-has: ingested 4 records: 0 added, 4 rejected
stderr-has: neg.yaml:25:41: error: Workload team-s/s1: status.admission.podSetAssignments[0].resourceUsage.nvidia.com/gpu "-1" is not a quantity of 0 or more (4, 500m, 1Gi); nothing of it is stored [QF703]
stderr-has: bad.yaml:62:41: error: Workload team-u/u1: status.admission.podSetAssignments[0].resourceUsage.nvidia.com/gpu "one" is not a quantity of 0 or more
after-sh: [ "$($QF audit query --db "$tmp/a.db" "select (select count(*) from workloads) || '/' || (select count(*) from wl_usage) || '/' || (select count(*) from rejected)" | tail -1)" = "0/0/4" ]
