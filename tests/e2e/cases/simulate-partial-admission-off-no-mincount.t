# With the PartialAdmission gate off, Kueue's Job reconciler makes a Job's
# Workload without minCount (jobframework clearMinCountsIfFeatureDisabled,
# in prepareWorkload), whatever kueue.x-k8s.io/job-min-parallelism says, and
# the scheduler tries no smaller count: the 4-pod Job is not admitted on 2
# cpu.  A
# Workload loaded as it stands keeps the minCount it was stored with (the
# webhook drops it only on create).
args: simulate -f tests/fixtures/simulate/partial-admission-off-job.yaml --cycles 1 --dump-state "$tmp/pa.json"
exit: 0
after-sh: python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); w={o["metadata"]["name"]: o for o in d["items"] if o["kind"]=="Workload"}; j=w["job-job-0777b"]; assert "minCount" not in j["spec"]["podSets"][0], j["spec"]["podSets"][0]; assert "admission" not in j.get("status", {}), j["status"]; assert w["loaded"]["spec"]["podSets"][0]["minCount"]==2, w["loaded"]["spec"]' "$tmp/pa.json"
