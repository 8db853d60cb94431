# The same ClusterQueue with Kueue's finalizer only: Kueue lets go of it
# once no workload holds its quota, the object goes, and the workload finds
# no ClusterQueue.
setup-sh: sed 's|, example.com/audit||' tests/fixtures/simulate/cq-held-by-finalizer.yaml > "$tmp/released.yaml"
args: simulate -f "$tmp/released.yaml" --dump-state "$tmp/released.json"
exit: 0
after-sh: python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); k=[o["kind"] for o in d["items"]]; assert "ClusterQueue" not in k, k; w=[o for o in d["items"] if o["kind"]=="Workload"][0]; assert w["status"]["conditions"][0]["message"]=="ClusterQueue cq doesn'"'"'t exist", w' "$tmp/released.json"
