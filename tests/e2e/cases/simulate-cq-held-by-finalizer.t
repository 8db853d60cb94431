# A ClusterQueue being deleted that no workload holds quota of stays,
# terminating, while a finalizer besides Kueue's resource-in-use holds the
# object (Kueue's cache keeps it until the object goes): its LocalQueue's
# workload waits as on an inactive queue, and only its own finalizer is
# left on it (Kueue lets go of its own once the queue is empty).  It was dropped at once ("doesn't
# exist").
args: simulate -f tests/fixtures/simulate/cq-held-by-finalizer.yaml --dump-state "$tmp/held.json"
exit: 0
after-sh: python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c={o["kind"]: o["status"]["conditions"][0] for o in d["items"] if o["kind"] in ("ClusterQueue","Workload","LocalQueue")}; assert c["ClusterQueue"]["reason"]=="Terminating", c; assert c["Workload"]["message"]=="ClusterQueue cq is inactive", c; assert c["LocalQueue"]["reason"]=="ClusterQueueIsInactive", c; q=[o for o in d["items"] if o["kind"]=="ClusterQueue"][0]; assert q["metadata"]["finalizers"]==["example.com/audit"], q["metadata"]' "$tmp/held.json"
